"""The sandbox's invites, random requests, chat and notifications endpoints."""

from __future__ import annotations

from engine.errors import LexiconError
from sandbox.api import JSON, Answer, ApiError, invite_json, my_game, ok, request_json, require, route
from sandbox.state import NORMAL, RANDOM, Invite, RandomRequest, State, User

#: Longest chat message kept.
MAX_CHAT = 1000


def _game_settings(state: State, data: JSON) -> tuple[int, str]:
    ruleset = data.get("ruleset")
    if not isinstance(ruleset, int) or isinstance(ruleset, bool) or not 0 <= ruleset <= 12:
        raise ApiError("invalid_ruleset", f"ruleset {ruleset!r} is not one of 0..12")
    try:
        state.lexicons(ruleset)  # a game needs one: refuse now rather than fail when it starts
    except LexiconError:
        raise ApiError("invalid_ruleset", f"this sandbox has no lexicon for ruleset {ruleset}") from None
    board_type = data.get("board_type")
    if board_type not in (NORMAL, RANDOM):
        raise ApiError("invalid_board_type", f"board_type {board_type!r} is not 'normal' or 'random'")
    return ruleset, str(board_type)


@route(r"invite/new", write=True)
def _invite(state: State, user: User, data: JSON, groups: tuple[str, ...]) -> Answer:
    name = require(data, "invitee", str).lower()
    ruleset, board_type = _game_settings(state, data)
    invitee = next((u for u in state.users.values() if u.username.lower() == name), None)
    if invitee is None or invitee.id == user.id:
        raise ApiError("user_not_found", f"no other user {name!r}")
    for invite in state.invites.values():
        if (invite.inviter, invite.invitee, invite.ruleset, invite.board_type) == (
            user.id,
            invitee.id,
            ruleset,
            board_type,
        ):
            raise ApiError("duplicate_invite")
    invite = Invite(state.next_id("invite"), user.id, invitee.id, ruleset, board_type, state.clock())
    if invitee.id in state.house:
        game = state.new_game(user, invitee, ruleset, board_type)  # the house accepts at once
        return ok({"invitation": {**invite_json(state, invite), "game_id": game.id}})
    state.invites[invite.id] = invite
    state.notify(invitee.id, {"type": "invite_received", "user_id": user.id, "username": user.username})
    return ok({"invitation": invite_json(state, invite)})


def _my_invite(state: State, user: User, invite_id: str) -> Invite:
    invite = state.invites.get(int(invite_id))
    if invite is None or invite.invitee != user.id:
        raise ApiError("access_denied", f"no invitation {invite_id} for you")
    return invite


@route(r"invite/(\d{1,19})/accept", write=True)
def _accept(state: State, user: User, data: JSON, groups: tuple[str, ...]) -> Answer:
    invite = _my_invite(state, user, groups[0])
    del state.invites[invite.id]
    game = state.new_game(state.users[invite.inviter], user, invite.ruleset, invite.board_type)
    return ok({"id": game.id})


@route(r"invite/(\d{1,19})/reject", write=True)
def _reject(state: State, user: User, data: JSON, groups: tuple[str, ...]) -> Answer:
    invite = _my_invite(state, user, groups[0])
    del state.invites[invite.id]
    return ok({})


@route(r"random_request/create", write=True)
def _random_request(state: State, user: User, data: JSON, groups: tuple[str, ...]) -> Answer:
    ruleset, board_type = _game_settings(state, data)
    request = RandomRequest(state.next_id("request"), user.id, ruleset, board_type, state.clock())
    answer = ok({"request_status": "request_scheduled", "request": request_json(request)})
    partner = next(
        (
            r
            for r in state.random_requests.values()
            if r.user != user.id and (r.ruleset, r.board_type) == (ruleset, board_type)
        ),
        None,
    )
    if partner is not None:
        del state.random_requests[partner.id]
        state.new_game(state.users[partner.user], user, ruleset, board_type)
    elif state.house:
        state.new_game(user, state.users[min(state.house)], ruleset, board_type)
    else:
        state.random_requests[request.id] = request
    return answer


@route(r"game/(\d{1,19})/chat")
def _chat(state: State, user: User, data: JSON, groups: tuple[str, ...]) -> Answer:
    return ok({"messages": list(my_game(state, user, groups[0]).chat)})


@route(r"game/(\d{1,19})/chat/send", write=True)
def _chat_send(state: State, user: User, data: JSON, groups: tuple[str, ...]) -> Answer:
    game = my_game(state, user, groups[0])
    message = require(data, "message", str).strip()
    if not message or len(message) > MAX_CHAT:
        raise ApiError("bad_request", f"a message has 1 to {MAX_CHAT} characters")
    sent = state.clock()
    game.chat.append({"message": message, "sender": user.id, "sent": sent})
    other = next(p for p in game.players if p != user.id)
    state.notify(other, {"type": "chat", "game_id": game.id, "user_id": user.id, "message": message})
    return ok({"sent": sent})


@route(r"user/notifications", write=True)
def _notifications(state: State, user: User, data: JSON, groups: tuple[str, ...]) -> Answer:
    entries = state.notifications.pop(user.id, [])
    return ok({"entries": entries, "cutoff": False})
