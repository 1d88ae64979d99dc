"""Serving Debrief to a browser: Flet's web app behind one guard (see `guard`), and the table
shared with the guests on the local network (see `sharing`). Nothing here imports the screens
(views/): they stand above and are handed in."""
