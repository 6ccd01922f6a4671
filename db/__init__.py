"""Storage: SQLModel tables, the card store, collections, the bundled card data and its build script."""
