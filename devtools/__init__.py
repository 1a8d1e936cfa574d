"""Local development tooling: DynamoDB Local, the dev server. Not part of the Lambda package."""
