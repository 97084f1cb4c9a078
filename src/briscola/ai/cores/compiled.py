"""Compiling the cores' kernels with numba, and where their machine code is cached.

Importing a core compiles nothing and touches no file: :func:`jit` makes a numba
dispatcher that compiles on its first call, and the on-disk cache is switched on by
:func:`use_cache` the first time a core is used (building a
:class:`~briscola.ai.cores.head_to_head.Codec` or a solver does it). The cache is a folder
of the user's, never inside the package: ``BRISCOLA_CACHE_DIR`` when set, else
``$XDG_CACHE_HOME/briscola``, else ``~/.cache/briscola`` (:func:`cache_root`); in it one
folder per version of the kernels' sources, since numba checks only a function's own file
for changes and the kernels are compiled into each other (an older folder is removed when
a new one is made). ``NUMBA_CACHE_DIR``, when set, is used as numba uses it. When no
folder can be written, the kernels are compiled afresh in each process.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, cast

import numba

F = TypeVar("F", bound=Callable[..., Any])

KERNEL_MODULES = (
    "cores/head_to_head.py",
    "cores/head_to_head_solver.py",
    "cores/table_games.py",
    "search/pimc.py",
    "search/table_inference.py",
    "learned/features.py",
    "learned/net.py",
    "learned/leaves.py",
    "learned/games.py",
    "learned/table_features.py",
    "learned/table_hands.py",
    "learned/table_leaves.py",
)
"""The modules with compiled kernels (paths under ``briscola/ai``), which call each
other's."""

_KERNELS: list[Any] = []
_LOCK = threading.Lock()
_caching = False
_tried = False


def cache_root() -> Path:
    """The application's cache folder: ``BRISCOLA_CACHE_DIR``, else
    ``$XDG_CACHE_HOME/briscola``, else ``~/.cache/briscola``."""
    chosen = os.environ.get("BRISCOLA_CACHE_DIR")
    if chosen:
        return Path(chosen).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".cache"
    return base / "briscola"


def kernel_folder() -> Path:
    """The cache folder of this version of the kernels: ``numba-`` and a digest of their
    sources, in :func:`cache_root`."""
    ai = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for name in KERNEL_MODULES:
        digest.update((ai / name).read_bytes())
    return cache_root() / f"numba-{digest.hexdigest()[:16]}"


def use_cache() -> None:
    """Cache the kernels' machine code on disk from now on (see the module's notes); called
    before a core first runs, at most once a process."""
    global _caching, _tried
    with _LOCK:
        if _tried:
            return
        _tried = True
        if not os.environ.get("NUMBA_CACHE_DIR"):
            try:
                target = kernel_folder()
                if not target.is_dir():
                    for old in target.parent.glob("numba-*"):
                        shutil.rmtree(old, ignore_errors=True)
                    target.mkdir(parents=True, exist_ok=True)
            except OSError:  # no sources on disk, or no writable folder: no cache
                return
            numba.config.CACHE_DIR = str(target)  # type: ignore[attr-defined]  # untyped
        _caching = True
        for kernel in _KERNELS:
            _cache(kernel)


def _cache(kernel: Any) -> None:
    with contextlib.suppress(RuntimeError):  # numba found no writable cache locator
        kernel.enable_caching()


def jit(fn: F) -> F:
    """Compile ``fn`` with numba in nopython mode, without the GIL, on its first call;
    cached on disk once :func:`use_cache` has run."""
    kernel = numba.njit(nogil=True)(fn)
    with _LOCK:
        _KERNELS.append(kernel)
        if _caching:
            _cache(kernel)
    return cast(F, kernel)
