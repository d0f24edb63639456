#!/usr/bin/env python3
"""Runs Zulip's REST API documentation examples against a Parley server started from this checkout.

The examples are Zulip's own (zerver/openapi/python_examples.py, what Zulip's tools/test-api runs):
nothing of them is copied here. This driver starts Parley on an empty PGlite database, builds the
organization the examples expect (Zulip's development data: iago is user 11, hamlet 10, the next
new user is 25, channels Verona, Denmark and core team, the hamletcharacters group, nine custom
profile fields ...), stands in for the three Zulip modules the examples import (realm and user
look-ups answered through the API, and validate_against_openapi_schema checking responses against
zulip.yaml with jsonschema), then runs tools/test-api's sequence one statement at a time so that one
failure does not hide the next. Each failing example is listed with the requests it made that
failed; "missing endpoint" means Parley answered "Endpoint not found".

Environment:
  ZULIP_SRC       a zulip/zulip checkout (zerver/openapi/python_examples.py, zerver/tests/images/img.jpg)
                  (default $CLIENTS_SRC/zulip-server)
  ZULIP_API_SRC   a zulip/python-zulip-api checkout (default $CLIENTS_SRC/python-zulip-api)
  ZULIP_OPENAPI   zulip.yaml (default ../shared/zulip-api/zulip.yaml beside the checkout)
  CLIENTS_SRC     default /work/clients-src
  PORT            default 9795
Python packages from Debian: python3-requests python3-yaml python3-jsonschema python3-distro
python3-typing-extensions. Run with Debian's python3 (/usr/bin/python3).
Exit status: 0 when every failure is a missing endpoint, 1 otherwise.
"""
import ast
import base64
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import traceback
import types
from typing import Any

import requests
import yaml
from jsonschema import Draft4Validator, RefResolver

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CLIENTS_SRC = os.environ.get("CLIENTS_SRC", "/work/clients-src")
ZULIP_SRC = os.environ.get("ZULIP_SRC", os.path.join(CLIENTS_SRC, "zulip-server"))
ZULIP_API_SRC = os.environ.get("ZULIP_API_SRC", os.path.join(CLIENTS_SRC, "python-zulip-api"))
OPENAPI = os.environ.get("ZULIP_OPENAPI", os.path.join(REPO, "..", "shared", "zulip-api", "zulip.yaml"))
if not os.path.exists(OPENAPI):
    OPENAPI = "/work/shared/zulip-api/zulip.yaml"
PORT = int(os.environ.get("PORT", "9795"))
SITE = f"http://localhost:{PORT}"
API = f"{SITE}/api/v1"
PASSWORD = "dev-password"
OWNER = "desdemona@zulip.com"

sys.path.insert(0, os.path.join(ZULIP_API_SRC, "zulip"))
import zulip  # noqa: E402  (from the python-zulip-api checkout)


# ---------------------------------------------------------------------------------------------
# Every request the Python client makes, and which example made it.

class Recorder:
    def __init__(self) -> None:
        self.current = "(setup)"
        self.failures: dict[str, list[str]] = {}

    def note(self, method: str, url: str, status: int, body: str) -> None:
        if status < 400:
            return
        path = url.split("/api/v1", 1)[-1].split("?")[0]
        try:
            detail = json.loads(body)
            text = f'{detail.get("code")}: {detail.get("msg")}'
        except ValueError:
            text = body[:120]
        self.failures.setdefault(self.current, []).append(f"{method} {path} -> {status} {text}")


RECORDER = Recorder()
_original_request = requests.Session.request


def _recording_request(self: requests.Session, method: str, url: str, *args: Any, **kwargs: Any) -> requests.Response:
    response = _original_request(self, method, url, *args, **kwargs)
    if "/api/v1/" in url:
        RECORDER.note(method, url, response.status_code, response.text)
    return response


requests.Session.request = _recording_request  # type: ignore[method-assign]


# ---------------------------------------------------------------------------------------------
# validate_against_openapi_schema, after Zulip's zerver/openapi/openapi.py

with open(OPENAPI) as f:
    SPEC = yaml.safe_load(f)


def _nullable(node: Any) -> Any:
    """OpenAPI 3.0's `nullable` in JSON Schema terms."""
    if isinstance(node, list):
        return [_nullable(n) for n in node]
    if not isinstance(node, dict):
        return node
    # Zulip writes oneOf for "one of these documented variants", and its variants overlap (4xx
    # bodies are one CodedError with several examples): anyOf is the meaning.
    out = {("anyOf" if k == "oneOf" else k): _nullable(v) for k, v in node.items() if k != "nullable"}
    if node.get("nullable"):
        if "type" in out:
            out["type"] = [out["type"], "null"]
        else:
            out = {"anyOf": [out, {"type": "null"}]}
    return out


SCHEMA_SPEC = _nullable(SPEC)
RESOLVER = RefResolver("", SCHEMA_SPEC)


def _find_path(path: str) -> str | None:
    if path in SCHEMA_SPEC["paths"]:
        return path
    for template in SCHEMA_SPEC["paths"]:
        if re.fullmatch(re.sub(r"\\{[^}]+\\}", "[^/]+", re.escape(template)), path):
            return template
    return None


# What the shared zulip.yaml (feature level 378) cannot judge: endpoints and fields newer than it.
# Parley follows the spec (feature level 496) there; these are listed, not counted as failures.
YAML_GAPS: list[str] = []


def _deref(node: Any) -> Any:
    while isinstance(node, dict) and "$ref" in node:
        node = RESOLVER.resolve(node["$ref"])[1]
    return node


def validate_against_openapi_schema(content: dict[str, Any], path: str, method: str, status_code: str) -> bool:
    template = _find_path(path)
    if template is None:
        YAML_GAPS.append(f"{method.upper()} {path}: not in zulip.yaml, not validated")
        return True
    operation = SCHEMA_SPEC["paths"][template].get(method.lower())
    if operation is None or status_code not in operation["responses"]:
        YAML_GAPS.append(f"{method.upper()} {path} {status_code}: not in zulip.yaml, not validated")
        return True
    response = _deref(operation["responses"][status_code])
    schema = _deref(response["content"]["application/json"])["schema"]
    errors = sorted(Draft4Validator(schema, resolver=RESOLVER).iter_errors(content), key=str)
    newer = [e for e in errors if e.validator == "additionalProperties"]
    for e in newer:
        YAML_GAPS.append(f"{method.upper()} {path}: {'/'.join(map(str, e.absolute_path)) or '(top)'}: {e.message[:160]}")
    errors = [e for e in errors if e.validator != "additionalProperties"]
    if errors:
        lines = [f"{'/'.join(map(str, e.absolute_path)) or '(top)'}: {e.message[:200]}" for e in errors[:5]]
        raise AssertionError(f"response does not match zulip.yaml {method} {path} {status_code}: " + "; ".join(lines))
    return True


# ---------------------------------------------------------------------------------------------
# The organization of Zulip's development database, as far as the examples rely on it.

def call(auth_email: str, key: str, method: str, path: str, **data: Any) -> dict[str, Any]:
    encoded = {k: v if isinstance(v, str) else json.dumps(v) for k, v in data.items()}
    kwargs = {"params": encoded} if method == "GET" else {"data": encoded}
    response = requests.request(method, API + path, auth=(auth_email, key), **kwargs)
    body = response.json()
    if body.get("result") != "success":
        raise RuntimeError(f"setup: {method} {path}: {body}")
    return body


def api_key(email: str) -> str:
    body = requests.post(API + "/fetch_api_key", data={"username": email, "password": PASSWORD}).json()
    if body.get("result") != "success":
        raise RuntimeError(f"cannot log in as {email}: {body}")
    return body["api_key"]


# Zulip's development users whose IDs the examples hard-code (ensure_users checks them).
USERS_BY_ID = {6: ("aaron", "aaron"), 7: ("zoe", "Zoe"), 8: ("cordelia", "Cordelia, Lear's daughter"),
               9: ("othello", "Othello, the Moor of Venice"), 10: ("hamlet", "King Hamlet"), 11: ("iago", "Iago"),
               12: ("prospero", "Prospero from The Tempest"), 13: ("polonius", "Polonius"), 14: ("shiva", "Shiva")}
GUEST_ID = 24  # tools/test-api creates guest@zulip.com just before the examples; newbie then gets 25

PROFILE_FIELDS = [  # Zulip's development custom profile fields, IDs 1 to 9
    {"name": "Phone number", "field_type": 1, "hint": ""},
    {"name": "Biography", "field_type": 2, "hint": "What are you known for?"},
    {"name": "Favorite food", "field_type": 1, "hint": "Or drink, if you'd prefer"},
    {"name": "Favorite editor", "field_type": 3, "hint": "", "field_data": {"emacs": {"text": "Emacs", "order": "1"}, "vim": {"text": "Vim", "order": "2"}}},
    {"name": "Birthday", "field_type": 4, "hint": ""},
    {"name": "Favorite website", "field_type": 5, "hint": "Or your personal blog's URL"},
    {"name": "Mentor", "field_type": 6, "hint": ""},
    {"name": "GitHub username", "field_type": 7, "hint": "", "field_data": {"subtype": "github"}},
    {"name": "Pronouns", "field_type": 8, "hint": "What pronouns should people use to refer to you?"},
]


def build_organization() -> dict[str, str]:
    owner_key = api_key(OWNER)
    owner = (OWNER, owner_key)
    me = call(*owner, "GET", "/users/me")
    existing = {u["user_id"] for u in call(*owner, "GET", "/users")["members"]}
    existing.add(me["user_id"])
    next_id = max(existing) + 1
    created: dict[str, int] = {}
    while next_id < GUEST_ID:
        short, name = USERS_BY_ID.get(next_id, (f"filler{next_id}", f"Filler {next_id}"))
        user_id = call(*owner, "POST", "/users", email=f"{short}@zulip.com", password=PASSWORD, full_name=name)["user_id"]
        if user_id != next_id:
            raise RuntimeError(f"{short} got ID {user_id}, not {next_id}: the IDs the examples hard-code will not match")
        created[short] = user_id
        next_id += 1
    guest = call(*owner, "POST", "/users", email="guest@zulip.com", password=PASSWORD, full_name="Mr. Guest")
    if guest["user_id"] != GUEST_ID:
        raise RuntimeError(f"guest got ID {guest['user_id']}, not {GUEST_ID}")
    call(*owner, "PATCH", f"/users/{created['iago']}", role=200)
    keys = {short: api_key(f"{short}@zulip.com") for short in ("iago", "hamlet", "cordelia", "othello")}
    keys["desdemona"] = owner_key
    keys["guest"] = api_key("guest@zulip.com")
    iago = ("iago@zulip.com", keys["iago"])
    everyone = [created[s] for s in ("iago", "hamlet", "cordelia", "othello", "aaron", "zoe", "prospero")]
    for channel in ("Verona", "Denmark", "Scotland", "Venice"):
        call(*owner, "POST", "/users/me/subscriptions", subscriptions=[{"name": channel}], principals=everyone + [me["user_id"]])
    # get_streams expects iago in 7 channels (the default channel, these four, core team, python-test).
    call(*owner, "POST", "/users/me/subscriptions", subscriptions=[{"name": "Rome"}], principals=[created["hamlet"], me["user_id"]])
    call(*owner, "POST", "/users/me/subscriptions", subscriptions=[{"name": "core team"}], invite_only=True,
         principals=[created["iago"], me["user_id"]])
    hamlet = ("hamlet@zulip.com", keys["hamlet"])
    for channel, topic, content in (("Denmark", "Castle", "Something is rotten in the state of Denmark."),
                                    ("Verona", "test", "A test message in Verona."),
                                    ("Denmark", "dinner", "What's for dinner?")):
        call(*hamlet, "POST", "/messages", type="stream", to=channel, topic=topic, content=content)
    call(*iago, "POST", "/messages", type="stream", to="Verona", topic="test", content="Iago in Verona")
    # Channel 1 (whatever it is called here) has a topic "test", which the examples list and delete.
    call(*owner, "POST", "/messages", type="stream", to=1, topic="test", content="The first channel's test topic")
    call(*owner, "POST", "/user_groups/create", name="hamletcharacters", description="Characters of Hamlet",
         members=[created["hamlet"], created["cordelia"]])
    for field in PROFILE_FIELDS:
        call(*owner, "POST", "/realm/profile_fields", **field)
    return keys


# ---------------------------------------------------------------------------------------------
# The Zulip modules the examples import.

def install_stand_ins() -> None:
    class RealmStandIn:
        string_id = "zulip"

    class UserStandIn:
        def __init__(self, user_id: int) -> None:
            self.id = user_id

    def get_realm(string_id: str) -> RealmStandIn:
        return RealmStandIn()

    def get_user(email: str, realm: RealmStandIn) -> UserStandIn:
        owner_key = api_key(OWNER)
        body = requests.get(f"{API}/users/{email}", auth=(OWNER, owner_key)).json()
        if body.get("result") != "success":
            raise AssertionError(f"no user {email}")
        return UserStandIn(body["user"]["user_id"])

    modules = {
        "zerver": types.ModuleType("zerver"),
        "zerver.models": types.ModuleType("zerver.models"),
        "zerver.models.realms": types.ModuleType("zerver.models.realms"),
        "zerver.models.users": types.ModuleType("zerver.models.users"),
        "zerver.openapi": types.ModuleType("zerver.openapi"),
        "zerver.openapi.openapi": types.ModuleType("zerver.openapi.openapi"),
    }
    modules["zerver"].__path__ = [os.path.join(ZULIP_SRC, "zerver")]
    modules["zerver.openapi"].__path__ = [os.path.join(ZULIP_SRC, "zerver", "openapi")]
    modules["zerver.models.realms"].get_realm = get_realm  # type: ignore[attr-defined]
    modules["zerver.models.users"].get_user = get_user  # type: ignore[attr-defined]
    modules["zerver.openapi.openapi"].validate_against_openapi_schema = validate_against_openapi_schema  # type: ignore[attr-defined]
    sys.modules.update(modules)


# ---------------------------------------------------------------------------------------------
# tools/test-api's sequence, one statement at a time

RESULTS: list[tuple[str, str]] = []  # (example, failure or "")

# Failures whose cause is known and reported (docs/clients.md), kept apart from the unexplained ones.
KNOWN = {
    "register_push_device": "the example predates feature level 468 (device_id, push_key_id, push_key); Parley follows the spec's 496",
}


def statement_name(node: ast.stmt) -> str:
    for sub in ast.walk(node):
        if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name):
            return sub.func.id
    return ast.unparse(node)[:60]


def run_statements(examples: types.ModuleType, body: list[ast.stmt], scope: dict[str, Any]) -> None:
    for node in body:
        name = statement_name(node)
        RECORDER.current = name
        try:
            exec(compile(ast.Module(body=[node], type_ignores=[]), examples.__file__, "exec"), vars(examples), scope)
            RESULTS.append((name, ""))
        except (Exception, SystemExit) as error:  # noqa: BLE001 - every failure is a result here
            frame = traceback.extract_tb(error.__traceback__)[-1]
            RESULTS.append((name, f"{type(error).__name__}: {str(error)[:300]} (at {os.path.basename(frame.filename)}:{frame.lineno} `{(frame.line or '').strip()[:90]}`)"))
            # A value the statement should have produced (message_id, queue_id ...) stays unset: None.
            for target in getattr(node, "targets", []):
                for leaf in ast.walk(target):
                    if isinstance(leaf, ast.Name):
                        scope.setdefault(leaf.id, None)


def run_function(examples: types.ModuleType, function_name: str, scope: dict[str, Any]) -> None:
    source = open(examples.__file__).read()
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef) and node.name == function_name:
            run_statements(examples, node.body, scope)
            return
    raise RuntimeError(f"{function_name} not found in {examples.__file__}")


def main() -> int:
    examples_path = os.path.join(ZULIP_SRC, "zerver", "openapi", "python_examples.py")
    if not os.path.exists(examples_path):
        print(f"missing {examples_path} (set ZULIP_SRC to a zulip/zulip checkout)")
        return 2
    work = tempfile.mkdtemp(prefix="parley-api-examples.")
    # Zulip's development server, where these examples pass, links Gravatar (ENABLE_GRAVATAR): the
    # client_gravatar example expects no avatar URL at all. No request goes to Gravatar.
    env = dict(os.environ, PORT=str(PORT), PARLEY_DATA_DIR=os.path.join(work, "data"), PARLEY_ADMIN_EMAIL=OWNER,
               PARLEY_ADMIN_PASSWORD=PASSWORD, PARLEY_REALM_NAME="Zulip Dev", PARLEY_GRAVATAR="1")
    log = open(os.path.join(work, "server.log"), "w")
    server = subprocess.Popen(["npx", "tsx", "main.ts"], cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        for _ in range(120):
            try:
                requests.get(API + "/server_settings", timeout=10)
                break
            # A loaded machine may accept the connection long before the first answer.
            except (requests.ConnectionError, requests.Timeout):
                time.sleep(1)
        keys = build_organization()
        install_stand_ins()
        sys.path.insert(0, ZULIP_SRC)
        import importlib
        examples = importlib.import_module("zerver.openapi.python_examples")

        client = zulip.Client(email="iago@zulip.com", api_key=keys["iago"], site=SITE)
        owner_client = zulip.Client(email=OWNER, api_key=keys["desdemona"], site=SITE)
        nonadmin_client = zulip.Client(email="guest@zulip.com", api_key=keys["guest"], site=SITE)
        scope: dict[str, Any] = {"client": client, "nonadmin_client": nonadmin_client, "owner_client": owner_client}
        # test_the_api's groups, each one statement at a time (test_the_api itself would stop at the
        # first failure).
        for group in ("get_user_agent", "test_users", "test_streams", "test_messages", "test_queues",
                      "test_server_organizations", "test_errors", "test_invitations", "test_welcome_bot_custom_message"):
            if group.startswith("test_") and group != "test_welcome_bot_custom_message":
                run_function(examples, group, scope)
            else:
                run_statements(examples, ast.parse(f"{group}(client)").body, scope)

        # tools/test-api's error payload checks, with the guest's address.
        bad_client = zulip.Client(email="guest@zulip.com", api_key="X" * 32, site=SITE)
        run_statements(examples, ast.parse("test_invalid_api_key(bad_client)").body, {"bad_client": bad_client})
        call(OWNER, keys["desdemona"], "DELETE", f"/users/{GUEST_ID}")
        deactivated_client = zulip.Client(email="guest@zulip.com", api_key=keys["guest"], site=SITE)
        run_statements(examples, ast.parse("test_user_account_deactivated(deactivated_client)").body, {"deactivated_client": deactivated_client})
        call(OWNER, keys["desdemona"], "POST", f"/users/{GUEST_ID}/reactivate")
        never_called = sorted(examples.REGISTERED_TEST_FUNCTIONS - examples.CALLED_TEST_FUNCTIONS)
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
        log.close()

    failures = [(name, why) for name, why in RESULTS if why]
    missing, known, wrong = [], [], []
    for name, why in failures:
        requests_failed = RECORDER.failures.get(name, [])
        if name in KNOWN:
            known.append((name, f"{KNOWN[name]} [{why}]", requests_failed))
        elif any("Endpoint not found" in r for r in requests_failed):
            missing.append((name, why, requests_failed))
        else:
            wrong.append((name, why, requests_failed))
    print(f"Zulip's API examples against Parley: {len(RESULTS)} statements run, {len(RESULTS) - len(failures)} passed, "
          f"{len(missing)} failed on a missing endpoint, {len(known)} known and reported, {len(wrong)} failed otherwise")
    for title, rows in (("Missing endpoints (other issues)", missing), ("Known differences (reported)", known), ("Other failures", wrong)):
        print(f"\n{title}:")
        for name, why, failed in rows:
            print(f"  {name}: {why}")
            for line in failed:
                print(f"      {line}")
    if YAML_GAPS:
        print("\nNewer than the shared zulip.yaml (feature level 378), so not judged by it:")
        for line in sorted(set(YAML_GAPS)):
            print(f"  {line}")
    if never_called:
        print(f"\nExamples never called: {', '.join(never_called)}")
    print(f"\nNot run: test_realm_deactivated (Parley has no API to deactivate an organization); "
          f"the curl and JavaScript examples (they need Zulip's documentation build). Server log: {work}/server.log")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
