"""Review and release: reviewer decisions, and hashed, verifiable release snapshots (BagIt bags)."""
