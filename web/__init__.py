"""Serving Debrief to a browser: Flet's web app behind one guard (see `guard`)."""
