"""What a page says when its connection to the app ends (web/connection_note.py shows it over
the last screen): for a guest's phone, that the host stopped sharing or that the connection is
lost; for the host's own page, that Debrief on this computer cannot be reached."""

from __future__ import annotations

from web.guard import GUEST

from .i18n import LANGUAGES, translator


def note_texts(role: str, languages: tuple[str, ...]) -> dict[str, str]:
    """The note's texts for `role`, in the first of `languages` the app speaks (else English)."""
    t = translator(next((language for language in languages if language in LANGUAGES), "en"))
    if role == GUEST:
        return {
            "lost_title": t("Lost the connection to the host."),
            "lost_body": t(
                "The scores are as they were last. Trying again: this page comes back by "
                "itself when the table can be reached."
            ),
            "stopped_title": t("The host stopped sharing."),
            "stopped_body": t(
                "The scores are as they were last. To join again, scan the host's new code: "
                "each share has a new link and PIN."
            ),
        }
    return {
        "lost_title": t("Lost the connection to Debrief on this computer."),
        "lost_body": t("Trying again: this page comes back by itself when Debrief runs again."),
        "stopped_title": t("Debrief was started again."),
        "stopped_body": t("Open it from the link it printed when it started."),
    }
