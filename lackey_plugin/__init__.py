"""Everything that speaks LackeyCCG's formats: plugin export and lint, .dek, checksums, logs."""
