"""A table on Discord: its public message and components, the private hands, the presenter.

:mod:`.presenter` shows what the table service's events changed; :mod:`.components` turns
render's button lists into routed items; :mod:`.publishing` edits or reposts the public
message; :mod:`.open_hands` keeps the private hands it may edit; :mod:`.keeping` resumes
tables at start-up and tells the channel what the keeper did; :mod:`.card_emojis` uploads
the card pictures as the application's emojis.
"""
