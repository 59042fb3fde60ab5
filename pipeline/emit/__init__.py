"""The emit stage: mapped cells as review-ready records (extracted/<source>/records.jsonl)."""
