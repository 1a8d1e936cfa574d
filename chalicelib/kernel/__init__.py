"""The shared kernel every area uses and which uses no area: the clock adapter, ids and
keys, the language spoken (i18n), free text and talk, pydantic bases, errors and their
codes, a request's idempotency and outcome, logs and metrics."""
