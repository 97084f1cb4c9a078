"""A software passkey authenticator for the server's tests: it answers a WebAuthn
ceremony's options as a browser with a platform authenticator would (``credential.toJSON()``),
with an ECDSA P-256 key of its own, "none" attestation, and a signature counter. It lets
a test tamper with any part of an answer (another origin, another key, a counter gone
back), which a browser's virtual authenticator cannot.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import struct
from dataclasses import dataclass, field
from typing import Any

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


UP, UV, AT = 0x01, 0x04, 0x40
"""authenticatorData's flags: user present, user verified, attested credential data."""


@dataclass
class Authenticator:
    """One passkey (made by :meth:`create`) and the key behind it."""

    origin: str
    key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    credential_id: bytes = field(default_factory=lambda: os.urandom(16))
    counter: int = 0
    user_handle: bytes | None = None

    def _client_data(self, kind: str, challenge: str, origin: str | None) -> bytes:
        return json.dumps(
            {
                "type": kind,
                "challenge": challenge,
                "origin": origin or self.origin,
                "crossOrigin": False,
            }
        ).encode()

    def _cose_key(self) -> bytes:
        numbers = self.key.public_key().public_numbers()
        return cbor2.dumps(
            {
                1: 2,
                3: -7,
                -1: 1,
                -2: numbers.x.to_bytes(32, "big"),
                -3: numbers.y.to_bytes(32, "big"),
            }
        )

    def create(self, options: dict[str, Any], origin: str | None = None) -> dict[str, Any]:
        """The answer to registration ``options`` (``navigator.credentials.create``)."""
        self.user_handle = unb64url(options["user"]["id"])
        rp_hash = hashlib.sha256(options["rp"]["id"].encode()).digest()
        attested = bytes(16) + struct.pack(">H", len(self.credential_id)) + self.credential_id
        auth_data = (
            rp_hash
            + bytes([UP | UV | AT])
            + struct.pack(">I", self.counter)
            + attested
            + self._cose_key()
        )
        attestation = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": auth_data})
        cid = b64url(self.credential_id)
        return {
            "id": cid,
            "rawId": cid,
            "type": "public-key",
            "response": {
                "clientDataJSON": b64url(
                    self._client_data("webauthn.create", options["challenge"], origin)
                ),
                "attestationObject": b64url(attestation),
                "transports": ["internal"],
            },
            "clientExtensionResults": {},
            "authenticatorAttachment": "platform",
        }

    def get(
        self,
        options: dict[str, Any],
        origin: str | None = None,
        *,
        key: ec.EllipticCurvePrivateKey | None = None,
        counter: int | None = None,
    ) -> dict[str, Any]:
        """The answer to sign-in ``options`` (``navigator.credentials.get``); the counter
        goes one up (or is ``counter``), the signature by ``key`` when given."""
        self.counter = self.counter + 1 if counter is None else counter
        rp_hash = hashlib.sha256(options["rpId"].encode()).digest()
        auth_data = rp_hash + bytes([UP | UV]) + struct.pack(">I", self.counter)
        client_data = self._client_data("webauthn.get", options["challenge"], origin)
        signature = (key or self.key).sign(
            auth_data + hashlib.sha256(client_data).digest(), ec.ECDSA(hashes.SHA256())
        )
        cid = b64url(self.credential_id)
        return {
            "id": cid,
            "rawId": cid,
            "type": "public-key",
            "response": {
                "clientDataJSON": b64url(client_data),
                "authenticatorData": b64url(auth_data),
                "signature": b64url(signature),
                "userHandle": b64url(self.user_handle or b""),
            },
            "clientExtensionResults": {},
            "authenticatorAttachment": "platform",
        }
