"""schemathesis hooks for tests/integration/test_schemathesis.py (loaded through SCHEMATHESIS_HOOKS)."""

import json

import schemathesis


@schemathesis.check
def errors_are_problem_json(ctx, response, case):
    """Every error answer, whatever was sent, is application/problem+json with a stable code and
    its own status, never a stack trace (a page only for a client that asked for HTML)."""
    if response.status_code < 400:
        return None
    kind = (response.headers.get("content-type") or [""])[0]
    accept = str((case.headers or {}).get("Accept", ""))
    if kind.startswith("text/html") and "text/html" in accept:
        return None
    if kind != "application/problem+json":
        raise AssertionError(f"{response.status_code} answered as {kind!r}, not application/problem+json")
    problem = json.loads(response.content)
    if not problem.get("code") or problem.get("status") != response.status_code:
        raise AssertionError(f"not a problem with a code and its status: {problem}")
    if "Traceback" in problem.get("detail", ""):
        raise AssertionError("a stack trace in a problem's detail")
    return None
