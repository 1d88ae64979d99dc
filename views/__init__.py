"""Debrief's Flet screens: they show what `scoring` derives and never compute a score."""
