"""The name the page gives the service under test: the thread-service, or the user's jar (APP) in its place.

The harness keeps the role's name everywhere else (summary.json's `crashed.role`, log and raw file names): only the
words a reader sees change, so that a page about orders-service.jar does not call it the thread-service. The name
itself is core/app.service_label's."""

from __future__ import annotations

import re

from loadlab.core.app import THREAD_SERVICE

# The role's name as a word of prose: not inside a file or log name (platform-thread-service.log, thread-service.jar).
_AS_PROSE = re.compile(r"(?<![\w/.-])thread-service(?![\w-]|\.(?:log|jar|csv)\b)")
_TEXT_NODE = re.compile(r">([^<]+)<")


def named(text: str, service: str) -> str:
    """text with the service under test called by its name."""
    return text if service == THREAD_SERVICE else _AS_PROSE.sub(service, text)


def named_page(html: str, service: str) -> str:
    """The page's text with the service under test called by its name; tags and their attributes (links to logs and
    raw files) untouched."""
    if service == THREAD_SERVICE:
        return html
    return _TEXT_NODE.sub(lambda m: ">" + named(m.group(1), service) + "<", html)
