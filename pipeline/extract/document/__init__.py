"""One PDF's tables: pages screened and analysed, grids assembled into the model, continued tables joined."""
