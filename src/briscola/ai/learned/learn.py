"""Fitting a network to its targets: the losses, their gradients written out by hand in
numpy (three layers need no framework), and the Adam optimiser.

- a **value** network has two outputs: the logit of the chance to win the hand (its loss
  the cross-entropy with the result, 1, 1/2 or 0) and the point margin over 60 (its loss
  the squared error);
- a **policy** network has a logit per card id; the illegal ones are left out of its
  softmax, and its loss is the cross-entropy with the card played.

>>> import numpy as np
>>> from briscola.ai.learned.net import Net
>>> rng = np.random.default_rng(0)
>>> net = Net.fresh(6, (8, 8), 2, rng)
>>> x = rng.random((64, 6)).astype(np.float32)
>>> y = np.stack([x[:, 0] > 0.5, x[:, 1] - 0.5], 1).astype(np.float32)
>>> opt = Adam(net, lr=0.01)
>>> first = value_loss(net, x, y)[0]
>>> for _ in range(200):
...     opt.step(value_loss(net, x, y)[1])
>>> value_loss(net, x, y)[0] < first / 2
True
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from briscola.ai.learned.net import F32, Net

Grads = list[F32]
"""Gradients in the order ``ws[0], bs[0], ws[1], bs[1], ws[2], bs[2]``."""

BoolArray = npt.NDArray[np.bool_]


def _layers(net: Net, x: F32) -> tuple[F32, F32, F32]:
    h1 = np.maximum(x @ net.ws[0] + net.bs[0], 0.0)
    h2 = np.maximum(h1 @ net.ws[1] + net.bs[1], 0.0)
    return h1, h2, h2 @ net.ws[2] + net.bs[2]


def _backward(net: Net, x: F32, h1: F32, h2: F32, dz: F32) -> Grads:
    dh2 = (dz @ net.ws[2].T) * (h2 > 0)
    dh1 = (dh2 @ net.ws[1].T) * (h1 > 0)
    return [x.T @ dh1, dh1.sum(0), h1.T @ dh2, dh2.sum(0), h2.T @ dz, dz.sum(0)]


def sigmoid(z: F32) -> F32:
    out: F32 = 0.5 * (1.0 + np.tanh(0.5 * z))
    return out


def value_loss(net: Net, x: F32, y: F32, margin_weight: float = 1.0) -> tuple[float, Grads]:
    """The value loss over rows ``x`` with targets ``y`` (the result, the margin over 60),
    and its gradients: the mean cross-entropy of the result plus ``margin_weight`` times
    the mean squared error of the margin."""
    h1, h2, z = _layers(net, x)
    p = sigmoid(z[:, 0])
    eps = 1e-7
    ce = -(y[:, 0] * np.log(p + eps) + (1 - y[:, 0]) * np.log(1 - p + eps))
    err = z[:, 1] - y[:, 1]
    n = x.shape[0]
    loss = float(ce.mean() + margin_weight * (err * err).mean())
    dz = np.stack([(p - y[:, 0]) / n, 2 * margin_weight * err / n], 1).astype(np.float32)
    return loss, _backward(net, x, h1, h2, dz)


def policy_loss(
    net: Net, x: F32, legal: BoolArray, chosen: npt.NDArray[np.int64]
) -> tuple[float, Grads]:
    """The policy loss over rows ``x`` (the mean cross-entropy of the card ``chosen``
    among the ``legal`` ones) and its gradients."""
    h1, h2, z = _layers(net, x)
    p = masked_softmax(z, legal)
    n = x.shape[0]
    rows = np.arange(n)
    loss = float(-np.log(p[rows, chosen] + 1e-7).mean())
    dz = p.copy()
    dz[rows, chosen] -= 1.0
    dz /= n
    return loss, _backward(net, x, h1, h2, dz.astype(np.float32))


def masked_softmax(z: F32, legal: BoolArray) -> F32:
    """The softmax of each row of ``z`` over its ``legal`` entries (0 elsewhere)."""
    z = np.where(legal, z, -np.inf)
    z = z - z.max(1, keepdims=True)
    e = np.exp(z)
    out: F32 = (e / e.sum(1, keepdims=True)).astype(np.float32)
    return out


@dataclass
class Adam:
    """Adam (Kingma and Ba), with its moments, over a network's weights in place."""

    net: Net
    lr: float = 1e-3
    beta1: float = 0.9
    beta2: float = 0.999
    eps: float = 1e-8
    t: int = 0
    m: list[F32] = field(default_factory=list)
    v: list[F32] = field(default_factory=list)

    def params(self) -> list[F32]:
        return [a for k in range(3) for a in (self.net.ws[k], self.net.bs[k])]

    def step(self, grads: Grads) -> None:
        params = self.params()
        if not self.m:
            self.m = [np.zeros_like(p) for p in params]
            self.v = [np.zeros_like(p) for p in params]
        self.t += 1
        c1 = 1 - self.beta1**self.t
        c2 = 1 - self.beta2**self.t
        for p, g, m, v in zip(params, grads, self.m, self.v, strict=True):
            m *= self.beta1
            m += (1 - self.beta1) * g
            v *= self.beta2
            v += (1 - self.beta2) * g * g
            p -= (self.lr * (m / c1) / (np.sqrt(v / c2) + self.eps)).astype(np.float32)

    def state(self) -> dict[str, npt.NDArray[np.generic]]:
        """The moments and the step count, to save with a checkpoint."""
        out: dict[str, npt.NDArray[np.generic]] = {"t": np.array(self.t)}
        for k, (m, v) in enumerate(zip(self.m, self.v, strict=True)):
            out[f"m{k}"] = m
            out[f"v{k}"] = v
        return out

    def restore(self, state: dict[str, npt.NDArray[np.generic]]) -> None:
        self.t = int(state["t"])
        n = len(self.params())
        if f"m{n - 1}" in state:
            self.m = [np.asarray(state[f"m{k}"], np.float32) for k in range(n)]
            self.v = [np.asarray(state[f"v{k}"], np.float32) for k in range(n)]
