# Every guarded variable refuses what it must refuse, at plan time, before anything is created.

mock_provider "aws" {
  mock_data "aws_availability_zones" {
    defaults = {
      names = ["eu-west-1a"]
    }
  }
  mock_data "aws_ec2_instance_type_offerings" {
    defaults = {
      instance_types = ["c7i.large", "c7i.xlarge", "c7i.2xlarge"]
    }
  }
}

variables {
  admin_cidr          = "198.51.100.0/24"
  ssh_public_key_path = "tests/fixtures/test_ed25519.pub"
}

run "admin_cidr_accepts_a_host" {
  command = plan
  variables {
    admin_cidr = "198.51.100.7/32"
  }
}

run "admin_cidr_accepts_a_network" {
  command = plan
  variables {
    admin_cidr = "10.0.0.0/8"
  }
}

run "admin_cidr_rejects_ipv6" {
  command = plan
  variables {
    admin_cidr = "2001:db8::1/128"
  }
  expect_failures = [var.admin_cidr]
}

run "admin_cidr_rejects_ipv4_world" {
  command = plan
  variables {
    admin_cidr = "0.0.0.0/0"
  }
  expect_failures = [var.admin_cidr]
}

run "admin_cidr_rejects_ipv6_world" {
  command = plan
  variables {
    admin_cidr = "::/0"
  }
  expect_failures = [var.admin_cidr]
}

run "admin_cidr_rejects_nearly_world" {
  command = plan
  variables {
    admin_cidr = "0.0.0.0/1"
  }
  expect_failures = [var.admin_cidr]
}

run "admin_cidr_rejects_garbage" {
  command = plan
  variables {
    admin_cidr = "my-laptop"
  }
  expect_failures = [var.admin_cidr]
}

run "admin_cidr_rejects_bare_address" {
  command = plan
  variables {
    admin_cidr = "203.0.113.7"
  }
  expect_failures = [var.admin_cidr]
}

run "admin_cidr_rejects_host_bits" {
  command = plan
  variables {
    admin_cidr = "203.0.113.7/24"
  }
  expect_failures = [var.admin_cidr]
}

run "injector_count_rejects_zero" {
  command = plan
  variables {
    injector_count = 0
  }
  expect_failures = [var.injector_count]
}

run "injector_count_rejects_seventeen" {
  command = plan
  variables {
    injector_count = 17
  }
  expect_failures = [var.injector_count]
}

run "injector_count_rejects_fraction" {
  command = plan
  variables {
    injector_count = 1.5
  }
  expect_failures = [var.injector_count]
}

run "ttl_rejects_too_short" {
  command = plan
  variables {
    ttl_minutes = 14
  }
  expect_failures = [var.ttl_minutes]
}

run "ttl_rejects_too_long" {
  command = plan
  variables {
    ttl_minutes = 1441
  }
  expect_failures = [var.ttl_minutes]
}

run "ssh_key_must_exist" {
  command = plan
  variables {
    ssh_public_key_path = "tests/fixtures/no-such-key.pub"
  }
  expect_failures = [var.ssh_public_key_path]
}

run "ssh_key_must_be_a_public_key" {
  command = plan
  variables {
    ssh_public_key_path = "versions.tf"
  }
  expect_failures = [var.ssh_public_key_path]
}

run "region_rejects_garbage" {
  command = plan
  variables {
    region = "Ireland"
  }
  expect_failures = [var.region]
}

run "name_prefix_rejects_uppercase" {
  command = plan
  variables {
    name_prefix = "LoadLab"
  }
  expect_failures = [var.name_prefix]
}

run "ami_must_come_from_aws_public_parameters" {
  command = plan
  variables {
    ami_ssm_parameter = "/my/own/ami"
  }
  expect_failures = [var.ami_ssm_parameter]
}
