"""The CDK app: ``make synth`` writes its CloudFormation template to infra/cdk.out offline;
``make deploy`` deploys it (docs/deploy.md). Run by the CDK CLI (``cdk.json``) or directly."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # chalicelib (the table's definition) and the Chalice app

import aws_cdk as cdk  # noqa: E402

from infra.stack import BattlelineStack, SettingsError  # noqa: E402


def main(argv: list[str]) -> None:
    # Run by the CDK CLI, the context (cdk.json and -c flags) comes in the environment; run directly
    # (make synth), it is read from cdk.json here, and ``name=value`` arguments override it.
    context = {} if "CDK_CONTEXT_JSON" in os.environ else json.loads((HERE / "cdk.json").read_text())["context"]
    context.update(arg.split("=", 1) for arg in argv if "=" in arg)
    app = cdk.App(context=context, outdir=os.environ.get("CDK_OUTDIR", str(HERE / "cdk.out")))
    stack_name = app.node.try_get_context("stack_name") or "Battleline"
    try:
        BattlelineStack(app, stack_name, description="Battle Line and Khan & General correspondence server")
    except SettingsError as error:
        sys.exit(f"infra: {error}")
    app.synth()


if __name__ == "__main__":
    main(sys.argv[1:])
