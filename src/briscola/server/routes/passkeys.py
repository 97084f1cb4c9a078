"""Passkeys (WebAuthn, through the ``webauthn`` library): a signed-in person registers
one (``/api/passkeys``), and then signs in with it on any device that has it
(``/api/session/passkey``), with no password.

Each ceremony is two requests: the options (a challenge, kept in the database under a
ticket the client sends back, so that any server process may get the answer) and the
browser's answer, checked once. The relying party is the server's own origin: its public
URL when it has one (``--public-url``), else the address the request was sent to; a
browser refuses passkeys on a bare IP address, so a server on this machine is opened at
``http://localhost:PORT`` for them.
"""

from __future__ import annotations

import json
import secrets
from datetime import timedelta
from urllib.parse import urlsplit

import webauthn
from fastapi import APIRouter, Request, Response
from webauthn.helpers import bytes_to_base64url
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from briscola.server.deps import GuardsDep, Maybe, Me, TablesDep, address, digest, errors, limited
from briscola.server.devices import device_of
from briscola.server.errors import Refused
from briscola.server.guard import addressed_origin, origin_of
from briscola.server.messages import AnswerIn, CeremonyOut, Id, PasskeyOut, PlayerOut
from briscola.server.routes.session import refuse_signed_in, signed_in
from briscola.storage import NotFound, StorageError

router = APIRouter(tags=["passkeys"])

RP_NAME = "Briscola"
CEREMONY = timedelta(minutes=5)
"""How long a ceremony's challenge waits for the browser's answer."""


def relying_party(request: Request, guards: GuardsDep) -> tuple[str, str]:
    """The relying party's id (the host) and the origin the browser's answer must name."""
    public = guards.settings.public_url
    origin = origin_of(public) if public else addressed_origin(dict(request.scope))
    if origin is None:
        raise Refused("bad_request", "the request names no host", 422)
    host = urlsplit(origin).hostname or ""
    return host, origin


async def start(tables: TablesDep, purpose: str, player: int | None, challenge: bytes) -> str:
    """Keep the challenge of a ceremony; its ticket."""
    ticket = secrets.token_urlsafe(24)
    await tables.storage.create_challenge(
        digest(ticket), bytes_to_base64url(challenge), purpose, player, CEREMONY
    )
    return ticket


def refuse(reason: str) -> Refused:
    return Refused(
        "bad_passkey",
        f"the passkey was not accepted ({reason}): try again, or sign in another way",
    )


# -- registering ---------------------------------------------------------------------------


@router.post("/api/passkeys/options", response_model=CeremonyOut, responses=errors(401))
async def register_options(
    request: Request, player: Me, tables: TablesDep, guards: GuardsDep
) -> CeremonyOut:
    """Start registering a passkey for you: the options for
    `navigator.credentials.create`, and the ticket to send back with its answer
    (`POST /api/passkeys`) within 5 minutes."""
    rp_id, _ = relying_party(request, guards)
    kept = await tables.storage.passkeys_of(player.id)
    options = webauthn.generate_registration_options(
        rp_id=rp_id,
        rp_name=RP_NAME,
        user_id=f"briscola-player-{player.id}".encode(),
        user_name=player.nickname,
        user_display_name=player.nickname,
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED,
            user_verification=UserVerificationRequirement.PREFERRED,
        ),
        exclude_credentials=[
            PublicKeyCredentialDescriptor(id=webauthn.base64url_to_bytes(k.credential_id))
            for k in kept
        ],
    )
    ticket = await start(tables, "register", player.id, options.challenge)
    return CeremonyOut(ticket=ticket, options=json.loads(webauthn.options_to_json(options)))


@router.post(
    "/api/passkeys", response_model=PasskeyOut, status_code=201, responses=errors(400, 401, 422)
)
async def register(
    body: AnswerIn, request: Request, player: Me, tables: TablesDep, guards: GuardsDep
) -> PasskeyOut:
    """Register the passkey the browser made (its `credential.toJSON()`) for the options
    of `ticket`: from now on it signs you in (`POST /api/session/passkey`)."""
    rp_id, origin = relying_party(request, guards)
    try:
        challenge = await tables.storage.take_challenge(digest(body.ticket), "register")
    except (NotFound, StorageError):
        raise refuse("the ticket is unknown, used or too old") from None
    if challenge.player != player.id:
        raise refuse("the ticket is another person's")
    try:
        verified = webauthn.verify_registration_response(
            credential=body.credential,
            expected_challenge=webauthn.base64url_to_bytes(challenge.challenge),
            expected_rp_id=rp_id,
            expected_origin=origin,
        )
    except (WebAuthnException, ValueError, KeyError, TypeError) as e:
        raise refuse(str(e) or type(e).__name__) from None
    transports = body.credential.get("response", {}).get("transports")
    try:
        kept = await tables.storage.add_passkey(
            player.id,
            bytes_to_base64url(verified.credential_id),
            verified.credential_public_key,
            verified.sign_count,
            [str(t) for t in transports][:10] if isinstance(transports, list) else None,
            device_of(request.headers.get("user-agent")),
        )
    except StorageError:
        raise refuse("it is registered already") from None
    return PasskeyOut(id=kept.id, device=kept.device, created=kept.created, used=kept.used)


@router.get("/api/passkeys", response_model=list[PasskeyOut], responses=errors(401))
async def passkeys(player: Me, tables: TablesDep) -> list[PasskeyOut]:
    """Your passkeys, the first registered first."""
    return [
        PasskeyOut(id=k.id, device=k.device, created=k.created, used=k.used)
        for k in await tables.storage.passkeys_of(player.id)
    ]


@router.delete("/api/passkeys/{passkey}", status_code=204, responses=errors(401, 404, 422))
async def remove(passkey: Id, player: Me, tables: TablesDep) -> Response:
    """Remove one of your passkeys: it signs no one in from now on (the device may still
    list it: remove it there too)."""
    try:
        await tables.storage.remove_passkey(player.id, passkey)
    except NotFound:
        raise Refused(
            "bad_passkey_id",
            f"you have no passkey {passkey}: it may be removed already (GET /api/passkeys)",
            404,
        ) from None
    return Response(status_code=204)


# -- signing in ----------------------------------------------------------------------------


@router.post("/api/session/passkey/options", response_model=CeremonyOut, responses=errors(429))
async def sign_in_options(request: Request, tables: TablesDep, guards: GuardsDep) -> CeremonyOut:
    """Start signing in with a passkey: the options for `navigator.credentials.get` (any
    passkey of this site the device holds), and the ticket to send back with its answer
    (`POST /api/session/passkey`) within 5 minutes."""
    limited(guards.sign_in_tries, address(request), "sign-ins tried from your address")
    rp_id, _ = relying_party(request, guards)
    options = webauthn.generate_authentication_options(
        rp_id=rp_id, user_verification=UserVerificationRequirement.PREFERRED
    )
    ticket = await start(tables, "sign_in", None, options.challenge)
    return CeremonyOut(ticket=ticket, options=json.loads(webauthn.options_to_json(options)))


@router.post("/api/session/passkey", response_model=PlayerOut, responses=errors(400, 409, 422, 429))
async def sign_in(
    body: AnswerIn,
    request: Request,
    response: Response,
    tables: TablesDep,
    guards: GuardsDep,
    player: Maybe,
) -> PlayerOut:
    """Sign in with the passkey the browser chose (its `credential.toJSON()`), for the
    options of `ticket`: a new session of the passkey's player (the cookie). Signed in
    already, you are refused (`signed_in`): sign out first."""
    refuse_signed_in(player)
    rp_id, origin = relying_party(request, guards)
    try:
        challenge = await tables.storage.take_challenge(digest(body.ticket), "sign_in")
    except (NotFound, StorageError):
        raise refuse("the ticket is unknown, used or too old") from None
    credential_id = body.credential.get("id")
    if not isinstance(credential_id, str) or not 0 < len(credential_id) <= 1400:
        raise refuse("the answer names no passkey")
    try:
        kept = await tables.storage.passkey(credential_id)
    except NotFound:
        raise refuse("no one here has that passkey: it may have been removed") from None
    try:
        verified = webauthn.verify_authentication_response(
            credential=body.credential,
            expected_challenge=webauthn.base64url_to_bytes(challenge.challenge),
            expected_rp_id=rp_id,
            expected_origin=origin,
            credential_public_key=kept.public_key,
            credential_current_sign_count=kept.sign_count,
        )
    except (WebAuthnException, ValueError, KeyError, TypeError) as e:
        raise refuse(str(e) or type(e).__name__) from None
    await tables.storage.passkey_used(kept.id, verified.new_sign_count)
    owner = await tables.storage.get_player(kept.player)
    return await signed_in(owner, request, response, tables, guards)
