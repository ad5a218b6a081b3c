"""Files the user names: bounded reads, nesting depth measured before parsing, checked output paths."""
