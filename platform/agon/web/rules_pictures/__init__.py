"""The rules pages' pictures: inline SVG drawn from the engine's data and geometry, one
module per game, on shared hex and square drawing."""
