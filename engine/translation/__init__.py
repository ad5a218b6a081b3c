"""Translation: machine drafts of each question's dialect variants and their review."""
