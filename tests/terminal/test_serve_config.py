"""``briscola serve``'s settings from the environment (``BRISCOLA_PORT`` for ``--port``)
and from a TOML file (``--config FILE``), run as the real command: the command line wins
over the environment, which wins over the file, which wins over the default. A file that
is missing, not TOML, or holds a key no option has or a value of the wrong type stops the
command at once, naming the file and the key."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from serverkit import URL_LINE


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def clean_env(**more: str) -> dict[str, str]:
    """This process's environment without any ``BRISCOLA_*`` setting of serve, and ``more``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("BRISCOLA_")}
    env["PYTHONPATH"] = os.pathsep.join(sys.path)
    return {**env, **more}


def serve(tmp: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """Run ``briscola serve ARGS`` in ``tmp`` with ``env``: once it prints the URL it is
    serving at, stop it (SIGTERM). The command's output, its first line the URL's."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "briscola", "serve", "--limits", "off", *args],
        cwd=tmp,
        env=clean_env(**env),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    out = []
    for line in proc.stdout:
        out.append(line)
        if URL_LINE.search(line):
            break
    proc.terminate()
    rest, err = proc.communicate(timeout=30)
    return subprocess.CompletedProcess(proc.args, proc.returncode, "".join(out) + rest, err)


def port_served(done: subprocess.CompletedProcess[str]) -> int:
    found = URL_LINE.search(done.stdout)
    assert found, f"it did not serve: {done.stderr}"
    return int(found.group(1).rstrip("/").rsplit(":", 1)[1])


def test_every_option_from_its_environment_variable(tmp_path: Path) -> None:
    port = free_port()
    done = serve(tmp_path, BRISCOLA_PORT=str(port), BRISCOLA_DATA=str(tmp_path / "from-env"))
    assert port_served(done) == port
    assert (tmp_path / "from-env" / "briscola.db").exists()
    assert not (tmp_path / "briscola-data").exists()


def test_settings_from_a_toml_file(tmp_path: Path) -> None:
    port = free_port()
    config = tmp_path / "briscola.toml"
    config.write_text(
        f'port = {port}\ndata = "{tmp_path / "from-file"}"\nbot_delay = 0\nlog_level = "info"\n'
        'log_format = "json"\n'
    )
    done = serve(tmp_path, "--config", str(config))
    assert port_served(done) == port
    assert (tmp_path / "from-file" / "briscola.db").exists()
    assert '"level": "info"' in done.stderr  # log_level and log_format: JSON info lines
    # the file's own path may come from the environment too
    port = free_port()
    config.write_text(f"port = {port}\n")
    assert port_served(serve(tmp_path, BRISCOLA_CONFIG=str(config))) == port


def test_command_line_over_environment_over_file_over_default(tmp_path: Path) -> None:
    file_port, env_port, cli_port = free_port(), free_port(), free_port()
    config = tmp_path / "briscola.toml"
    config.write_text(f'port = {file_port}\nhost = "127.0.0.1"\n')
    assert port_served(serve(tmp_path, "--config", str(config))) == file_port
    env = {"BRISCOLA_PORT": str(env_port)}
    assert port_served(serve(tmp_path, "--config", str(config), **env)) == env_port
    both = serve(tmp_path, "--config", str(config), "--port", str(cli_port), **env)
    assert port_served(both) == cli_port
    # what none of them sets is the default: the data folder
    assert (tmp_path / "briscola-data" / "briscola.db").exists()


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (None, "no such file"),
        ("port = \n", "not TOML"),
        ("prot = 8001\n", "unknown setting 'prot'; the settings are: data, database_url"),
        ('port = "8001"\n', "port = '8001': port is a whole number"),
        ("grace = true\n", "grace = True: grace is a number"),
        ("public_url = 1\n", "public_url = 1: public_url is a string (in quotes)"),
        ("port = 70000\n", "port = 70000: port is at least 0 and at most 65535"),
        ("config = 'other.toml'\n", "unknown setting 'config'"),
        ('limits = "maybe"\n', "limits is on or off, not 'maybe'"),
        ('public_url = "ftp://x"\n', "public_url: 'ftp://x' is not a web address"),
    ],
)
def test_a_bad_file_is_refused_naming_it_and_the_key(
    tmp_path: Path, text: str | None, said: str
) -> None:
    config = tmp_path / "briscola.toml"
    if text is not None:
        config.write_text(text)
    done = subprocess.run(
        [sys.executable, "-m", "briscola", "serve", "--config", str(config)],
        cwd=tmp_path,
        env=clean_env(COLUMNS="300"),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2, done.stdout
    assert f"error: --config {config}: {said}" in " ".join(done.stderr.split())
    assert not (tmp_path / "briscola-data").exists()  # nothing made


@pytest.mark.parametrize(
    ("env", "said"),
    [
        ({"BRISCOLA_PORT": "eighty"}, "(env var: 'BRISCOLA_PORT')"),
        ({"BRISCOLA_LIMITS": "maybe"}, "error: BRISCOLA_LIMITS is on or off, not 'maybe'"),
    ],
)
def test_a_bad_environment_value_names_its_variable(
    tmp_path: Path, env: dict[str, str], said: str
) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "briscola", "serve"],
        cwd=tmp_path,
        env=clean_env(**env, COLUMNS="300"),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert said in " ".join(done.stderr.split())


def test_the_help_names_each_variable_and_the_file() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "briscola", "serve", "--help"],
        env=clean_env(COLUMNS="200"),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "--config" in done.stdout and "TOML" in done.stdout
    for name in ("DATA", "DATABASE_URL", "PORT", "PUBLIC_URL", "REDIS_URL", "LOG_LEVEL"):
        assert f"env var: BRISCOLA_{name}]" in done.stdout
