"""The phone page: a Flask app showing the game as the companion sees it."""
