"""``--lang`` is remembered: the next command without it speaks the same language."""

from __future__ import annotations

from argparse import Namespace

from president.cli import settings


def test_lang_is_remembered_for_the_next_command() -> None:
    assert settings.load().language is None
    player, language = settings.for_command(Namespace(lang="pl", name=None))
    assert language == "pl" and settings.load().language == "pl"
    assert settings.load().name == ""          # the first-run name question still comes
    _, language = settings.for_command(Namespace(lang=None, name=None))
    assert language == "pl"
    _, language = settings.for_command(Namespace(lang="it_IT.UTF-8", name="Bea"))
    assert language == "it" and settings.load().language == "it"
    _, language = settings.for_command(Namespace(lang="xx", name=None))   # unknown: kept
    assert settings.load().language == "it"
