"""The distribution's version (pyproject.toml's `version`), in a module of its own: storage stamps databases and
indexes with it and the web app shows it, without importing the package's face (deckcheck/__init__.py), which names
the library above them."""
__version__ = "0.1.0"
