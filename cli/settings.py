"""The player's remembered settings (name, language) in the user's config directory.

``$PRESIDENT_CONFIG_DIR`` overrides the directory (tests); otherwise
``$XDG_CONFIG_HOME/president`` or ``~/.config/president``.
"""

from __future__ import annotations

import getpass
import os
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from president.cli.i18n import LANGUAGES, choose_language, normalize_language
from president.net.limits import NAME_MAX

ENV_DIR = "PRESIDENT_CONFIG_DIR"


@dataclass
class Settings:
    name: str = ""
    language: str | None = None
    bell: bool = False          # ring the terminal's bell when it is our move or tax
    auto_pass: bool = False     # pass by itself when nothing we hold beats the pile


def config_path(environ: dict[str, str] | None = None) -> Path:
    env = os.environ if environ is None else environ
    if env.get(ENV_DIR):
        return Path(env[ENV_DIR]) / "settings.toml"
    base = env.get("XDG_CONFIG_HOME") or str(Path(env.get("HOME", "~")).expanduser() / ".config")
    return Path(base) / "president" / "settings.toml"


def default_name() -> str:
    try:
        return getpass.getuser()[:NAME_MAX] or "Player"
    except Exception:  # noqa: BLE001 - no user database entry
        return "Player"


def suggested_name() -> str:
    """The name offered the first time: the login name, unless it names nobody."""
    name = default_name()
    return "" if name in ("root", "Player") else name


def first_time(args: Any) -> bool:
    """No name saved and none given (``--name``): the command asks for one, once."""
    return not load().name and not getattr(args, "name", None)


def remember_name(name: str) -> None:
    """Keep ``name`` for the next time (the other settings as they are saved)."""
    saved = load()
    saved.name = name
    try:
        save(saved)
    except OSError:
        pass  # a read-only home: asked again next time


def load(path: Path | None = None) -> Settings:
    path = path or config_path()
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError):
        return Settings()
    name = data.get("name")
    language = data.get("language")
    return Settings(
        name=name[:NAME_MAX] if isinstance(name, str) else "",
        language=language if language in LANGUAGES else None,
        bell=data.get("bell") is True,
        auto_pass=data.get("auto_pass") is True,
    )


def save(settings: Settings, path: Path | None = None) -> Path:
    path = path or config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [f"name = {_quote(settings.name)}"]
    if settings.language:
        lines.append(f"language = {_quote(settings.language)}")
    if settings.bell:
        lines.append("bell = true")
    if settings.auto_pass:
        lines.append("auto_pass = true")
    tmp = path.with_suffix(".tmp")
    tmp.write_text("\n".join(lines) + "\n", encoding="utf-8")
    tmp.replace(path)
    return path


def _quote(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    escaped = "".join(c if c.isprintable() else f"\\u{ord(c):04x}" for c in escaped)
    return f'"{escaped}"'


def language_of(args: Any) -> str:
    """The language a command speaks: ``--lang``, else the saved setting, else the locale."""
    return choose_language(getattr(args, "lang", None), load().language, dict(os.environ))


def for_command(args: Any) -> tuple[Settings, str]:
    """The settings a command runs with (``--name`` wins) and the language it speaks;
    a ``--lang`` is remembered for the next time."""
    saved = load()
    asked = normalize_language(getattr(args, "lang", None))
    if asked and asked != saved.language:
        saved.language = asked
        try:
            save(saved)
        except OSError:
            pass  # a read-only home: this time only
    settings = Settings(saved.name, saved.language, saved.bell, saved.auto_pass)
    if getattr(args, "name", None):
        settings.name = args.name
    if not settings.name:
        settings.name = default_name()
    return settings, choose_language(asked, saved.language, dict(os.environ))
