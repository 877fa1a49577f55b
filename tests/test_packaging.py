"""What a user installing the project expects beside the code: the licence, the changelog, package
metadata, and a Dockerfile whose health check asks the port the image's configuration listens on.
(Docker itself cannot run on the machines that test this project: the image is checked as text here.)"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from bot.settings.config import load_config, parse_listen

ROOT = Path(__file__).resolve().parents[1]


def test_licence_changelog_and_metadata_are_there() -> None:
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")
    assert "## Unreleased" in (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert "License :: OSI Approved :: MIT License" in project["classifiers"] and project["keywords"]


def test_the_docker_image_runs_as_a_user_with_state_on_a_volume_and_a_health_check() -> None:
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    final = text.split("\nFROM ")[-1]  # the image's own stage
    users = re.findall(r"^USER (\S+)$", final, re.MULTILINE)
    assert users and users[-1] not in ("root", "0")
    assert 'VOLUME ["/data"]' in final and "WORDFEUD_BOT_DATA=/data" in final
    assert "gcc" not in final  # the compiler stays in the build stage
    # secrets come from the environment at run time, never from the image
    assert not re.search(r"^(ENV|ARG)\b.*(PASSWORD|EMAIL|USERNAME)", text, re.MULTILINE | re.IGNORECASE)
    check = re.search(r"^HEALTHCHECK .*?CMD (.*)$", final, re.MULTILINE | re.DOTALL)
    assert check is not None
    url = re.search(r"http://([\d.]+):(\d+)/healthz", check.group(1))
    assert url is not None
    config = load_config(ROOT / "config" / "docker.toml")
    assert config.status.listen is not None
    assert parse_listen(config.status.listen) == (url.group(1), int(url.group(2)))
    assert "COPY --chown=wordfeud:wordfeud --chmod=0600 config/docker.toml /etc/wordfeud-bot/bot.toml" in final
    assert 'CMD ["run", "--config", "/etc/wordfeud-bot/bot.toml"]' in final
