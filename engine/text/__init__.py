"""Text shared by every stage: Bengali normalisation, legacy Bijoy, secret redaction, the bundled font."""
