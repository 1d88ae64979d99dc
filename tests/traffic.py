"""What a page asked of which hosts (the browser tests of a page that must stay on its own)."""

from __future__ import annotations

from urllib.parse import urlsplit

from playwright.sync_api import BrowserContext, Request, Response


class Traffic:
    """What a page asked for: every request, every answer of 400 or more, every failure, and
    what the page's Content-Security-Policy stopped before it left the browser."""

    def __init__(self) -> None:
        self.requested: list[str] = []
        self.refused: list[str] = []
        self.failed: list[str] = []
        self.stopped: list[str] = []

    def request(self, request: Request) -> None:
        self.requested.append(request.url)

    def response(self, response: Response) -> None:
        if response.status >= 400:
            self.refused.append(f"{response.status} {response.url}")

    def failure(self, request: Request) -> None:
        if request.failure == "csp":  # Chromium's word for "blocked by the page's policy"
            self.stopped.append(request.url)
        else:
            self.failed.append(f"{request.url}: {request.failure}")

    def elsewhere(self, host: str) -> list[str]:
        """The requests that went to any other host (a blob: or data: URL is made inside the
        page; a request the policy stopped never left it)."""
        return [
            url
            for url in self.requested
            if urlsplit(url).scheme in ("http", "https", "ws", "wss")
            and urlsplit(url).netloc != host
            and url not in self.stopped
        ]

    def watch(self, context: BrowserContext) -> Traffic:
        """Record what every page of `context` asks."""
        context.on("request", self.request)
        context.on("response", self.response)
        context.on("requestfailed", self.failure)
        return self

    def unwatch(self, context: BrowserContext) -> None:
        """Stop recording `context` (a phone kept for the session's later tests)."""
        context.remove_listener("request", self.request)
        context.remove_listener("response", self.response)
        context.remove_listener("requestfailed", self.failure)
