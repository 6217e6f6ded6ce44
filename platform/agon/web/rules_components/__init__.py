"""The rules pages' component tables, made from the engine's data, one module per game."""
