terraform {
  # Variable validations with can()/try() and check blocks need 1.5+; 1.6 is the floor the project supports.
  # The offline tests (infra/tests) use mock_provider and so need 1.7+.
  required_version = ">= 1.6"

  required_providers {
    aws = {
      source = "hashicorp/aws"
      # Real use takes the current major. infra/tests/run.sh swaps this one line for "3.39.0" in a throwaway copy,
      # because 3.39.0 is the only build it can obtain offline: keep the config within what 3.39 offers
      # (see infra/README.md, "Provider 3.39 compatibility").
      version = "~> 6.0"
    }
  }
}

provider "aws" {
  region = var.region

  # Tags every taggable resource, so a forgotten stack is easy to find (and bill) by Project/Stack.
  default_tags {
    tags = local.common_tags
  }
}
