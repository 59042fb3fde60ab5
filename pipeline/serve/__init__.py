"""``litaudit serve``: a local reviewer's workbench over the workspace (queue, finding view, record view)."""
