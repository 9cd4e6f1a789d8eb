"""Camera side of the companion: frame sources, board localisation, square and stick reading."""
