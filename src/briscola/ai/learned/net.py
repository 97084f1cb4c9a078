"""The networks: small multilayer perceptrons (two hidden layers, ReLU), their weights in
numpy arrays and a file.

A network is evaluated three ways, which agree:

- :meth:`Net.forward`, numpy over a batch of rows, written plainly: the reference;
- :func:`mlp_sparse`, a numba kernel for one position inside the search's compiled loops,
  reading only the input's non-zero numbers (a position has about 40 of 252);
- :meth:`Net.kernel_args`, the arrays that kernel takes.

A network's file (``.npz``) holds its weights and, as JSON, what it is: its ``kind``
(``value``: the chance to win the hand and the point margin; ``policy``: a logit per
card id), its ``game``, the features' version, the format version, and how it was made
(the commit, the seed, the games and steps it was trained on).

>>> import numpy as np
>>> net = Net.fresh(8, (4, 3), 2, np.random.default_rng(0), meta={"kind": "value"})
>>> net.forward(np.ones((1, 8), np.float32)).shape
(1, 2)
"""

from __future__ import annotations

import io
import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from briscola.ai.cores.compiled import jit

F32 = npt.NDArray[np.float32]
I64 = npt.NDArray[np.int64]

FORMAT = 1
"""The version of a network's file; a file of another is refused."""

SHIPPED = Path(__file__).with_name("nets")
"""The networks shipped with the package: ``GAME-KIND.npz`` (``briscola-2-value.npz``)."""


class NetError(ValueError):
    """A network file that cannot be read, or is not the network asked for."""


@dataclass
class Net:
    """Weights ``ws[i]`` (inputs by outputs) and biases ``bs[i]`` of three layers."""

    ws: list[F32]
    bs: list[F32]
    meta: dict[str, Any] = field(default_factory=dict)

    @staticmethod
    def fresh(
        inputs: int,
        hidden: tuple[int, int],
        outputs: int,
        rng: np.random.Generator,
        meta: dict[str, Any] | None = None,
    ) -> Net:
        """A network of random weights (He's scale for ReLU layers, small at the output)."""
        sizes = [inputs, *hidden, outputs]
        ws: list[F32] = []
        bs: list[F32] = []
        for k in range(3):
            scale = np.sqrt(2.0 / sizes[k]) if k < 2 else 0.1 / np.sqrt(sizes[k])
            ws.append((rng.standard_normal((sizes[k], sizes[k + 1])) * scale).astype(np.float32))
            bs.append(np.zeros(sizes[k + 1], np.float32))
        return Net(ws, bs, dict(meta or {}))

    @property
    def inputs(self) -> int:
        return int(self.ws[0].shape[0])

    @property
    def outputs(self) -> int:
        return int(self.ws[2].shape[1])

    def forward(self, x: F32) -> F32:
        """The outputs for each row of ``x`` (numpy, the reference)."""
        h = np.maximum(x @ self.ws[0] + self.bs[0], 0.0)
        h = np.maximum(h @ self.ws[1] + self.bs[1], 0.0)
        out: F32 = (h @ self.ws[2] + self.bs[2]).astype(np.float32)
        return out

    def kernel_args(self) -> tuple[F32, F32, F32, F32, F32, F32]:
        """The weights as :func:`mlp_sparse` takes them (contiguous float32)."""
        w1, w2, w3 = (np.ascontiguousarray(w, np.float32) for w in self.ws)
        b1, b2, b3 = (np.ascontiguousarray(b, np.float32) for b in self.bs)
        return w1, b1, w2, b2, w3, b3

    def nbytes(self) -> int:
        return sum(int(a.nbytes) for a in (*self.ws, *self.bs))

    def save(self, path: Path) -> None:
        """Write the network to ``path`` (``.npz``), with its description."""
        meta = {**self.meta, "format": FORMAT}
        arrays: dict[str, Any] = {"meta": np.array(json.dumps(meta, sort_keys=True))}
        arrays.update({f"w{k}": w for k, w in enumerate(self.ws)})
        arrays.update({f"b{k}": b for k, b in enumerate(self.bs)})
        buf = io.BytesIO()
        np.savez_compressed(buf, **arrays)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".part")
        tmp.write_bytes(buf.getvalue())
        tmp.replace(path)

    @staticmethod
    def load(path: Path) -> Net:
        """Read a network written by :meth:`save`; a :class:`NetError` says what is wrong."""
        try:
            with np.load(path, allow_pickle=False) as data:
                meta = json.loads(str(data["meta"]))
                ws = [np.asarray(data[f"w{k}"], np.float32) for k in range(3)]
                bs = [np.asarray(data[f"b{k}"], np.float32) for k in range(3)]
        except FileNotFoundError:
            raise NetError(f"no network at {path}") from None
        except (OSError, KeyError, ValueError) as e:
            raise NetError(f"{path} is not a network file ({e})") from None
        if meta.get("format") != FORMAT:
            raise NetError(
                f"{path} is a network of format {meta.get('format')}, this version reads "
                f"format {FORMAT}: train it again (briscola train)"
            )
        for k in range(3):
            if ws[k].shape[1] != bs[k].shape[0] or (k and ws[k].shape[0] != ws[k - 1].shape[1]):
                raise NetError(f"{path}: the layers' sizes do not fit together")
        return Net(ws, bs, meta)


def network(name: str, game: str, kind: str) -> Net | None:
    """The ``kind`` network of ``game``: the one shipped (``name`` ``"shipped"``; ``None``
    when the package ships none for the game), or the file ``name`` (read again when it
    changes). A file made for another game or kind is refused (:class:`NetError`)."""
    path = SHIPPED / f"{game}-{kind}.npz" if name == "shipped" else Path(name)
    try:
        stamp = path.stat().st_mtime_ns
    except OSError:
        if name == "shipped":
            return None
        raise NetError(f"no network at {path}") from None
    net = _read(str(path), stamp)
    if net.meta.get("kind") != kind or net.meta.get("game") != game:
        raise NetError(
            f"{path} is a {net.meta.get('kind')} network of {net.meta.get('game')}, "
            f"not a {kind} network of {game}"
        )
    return net


@lru_cache(maxsize=16)
def _read(path: str, stamp: int) -> Net:
    """A network file, read once for each time it was written (``stamp``)."""
    return Net.load(Path(path))


@jit
def mlp_sparse(
    idx: I64,
    val: F32,
    n: int,
    w1: F32,
    b1: F32,
    w2: F32,
    b2: F32,
    w3: F32,
    b3: F32,
    out: F32,
) -> None:
    """The network's outputs into ``out`` for an input whose non-zero numbers are
    ``val[:n]`` at places ``idx[:n]`` (the first layer adds up those rows alone)."""
    h1n = w1.shape[1]
    h2n = w2.shape[1]
    h1 = b1.copy()
    for k in range(n):
        row = w1[idx[k]]
        v = val[k]
        for j in range(h1n):
            h1[j] += v * row[j]
    h2 = b2.copy()
    for i in range(h1n):
        a = h1[i]
        if a > 0.0:
            row = w2[i]
            for j in range(h2n):
                h2[j] += a * row[j]
    out[:] = b3
    for i in range(h2n):
        a = h2[i]
        if a > 0.0:
            row = w3[i]
            for j in range(out.shape[0]):
                out[j] += a * row[j]
