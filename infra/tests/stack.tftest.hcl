# Behaviour of the configuration against the real provider schema, with a mocked provider (no AWS account).
# Run by infra/tests/run.sh in a throwaway copy pinned to provider 3.39.0.

mock_provider "aws" {
  mock_data "aws_availability_zones" {
    defaults = {
      names = ["eu-west-1a", "eu-west-1b", "eu-west-1c"]
    }
  }
  mock_data "aws_ec2_instance_type_offerings" {
    defaults = {
      instance_types = ["c7i.large", "c7i.xlarge", "c7i.2xlarge"]
    }
  }
  mock_data "aws_ssm_parameter" {
    defaults = {
      value = "ami-0123456789abcdef0"
    }
  }
}

variables {
  admin_cidr          = "203.0.113.7/32"
  ssh_public_key_path = "tests/fixtures/test_ed25519.pub"
}

run "defaults_make_three_hardened_hosts" {
  command = plan

  assert {
    condition     = length(aws_instance.host) == 3
    error_message = "defaults should make the thread, delay and one injector host"
  }
  assert {
    condition     = alltrue([for h in aws_instance.host : h.metadata_options[0].http_tokens == "required" && h.metadata_options[0].http_put_response_hop_limit == 1])
    error_message = "every host must require IMDSv2 with hop limit 1"
  }
  assert {
    condition     = alltrue([for h in aws_instance.host : h.root_block_device[0].encrypted && h.root_block_device[0].volume_type == "gp3"])
    error_message = "every root volume must be encrypted gp3"
  }
  assert {
    condition     = alltrue([for h in aws_instance.host : h.instance_initiated_shutdown_behavior == "terminate"])
    error_message = "an OS shutdown must terminate every host"
  }
  assert {
    condition     = alltrue([for h in aws_instance.host : strcontains(h.user_data, "OnBootSec=180min") && strcontains(h.user_data, "shutdown -h")])
    error_message = "user-data must schedule the default 180-minute TTL"
  }
  assert {
    condition     = alltrue([for h in aws_instance.host : strcontains(h.user_data, "java-25-amazon-corretto-headless") && strcontains(h.user_data, "/opt/loadlab/.ready")])
    error_message = "user-data must install Corretto 25 and write the ready marker"
  }
  assert {
    condition     = alltrue([for h in aws_instance.host : strcontains(h.user_data, "net.ipv4.ip_local_reserved_ports = 5499,8080,8081,8090")])
    error_message = "user-data must reserve the service ports out of the ephemeral range"
  }
  assert {
    condition     = aws_instance.host["thread"].instance_type == "c7i.large" && aws_instance.host["delay"].instance_type == "c7i.xlarge" && aws_instance.host["injector-0"].instance_type == "c7i.2xlarge"
    error_message = "default instance types per role changed"
  }
  assert {
    condition     = alltrue([for h in aws_instance.host : h.placement_group == "loadlab-cluster"])
    error_message = "every host should be in the cluster placement group"
  }
  assert {
    condition     = aws_placement_group.this[0].strategy == "cluster"
    error_message = "placement group must use the cluster strategy"
  }
  assert {
    condition     = aws_subnet.public.availability_zone == "eu-west-1a" && aws_subnet.public.map_public_ip_on_launch == false
    error_message = "subnet should take the first zone offering every type and not hand out public addresses by default"
  }
  assert {
    condition     = startswith(aws_key_pair.this.public_key, "ssh-ed25519 ")
    error_message = "key pair must carry the user's public key"
  }
  assert {
    condition     = output.hourly_cost_usd == 0.7278
    error_message = "hourly_cost_usd for the defaults should be 0.1008 + 0.2016 + 0.4032 + 3 x 0.005 + 3 x 20 x 0.088 / 730 = 0.7278"
  }
  assert {
    condition     = output.ssh_user == "ec2-user" && output.ttl_minutes == 180
    error_message = "ssh_user/ttl_minutes outputs wrong"
  }
  assert {
    condition     = output.instance_types == { thread = "c7i.large", delay = "c7i.xlarge", injector = "c7i.2xlarge" }
    error_message = "instance_types output wrong"
  }
}

run "security_group_admits_only_ssh_from_admin_and_service_ports_from_itself" {
  command = plan

  assert {
    condition     = length(aws_security_group.hosts.ingress) == 5
    error_message = "exactly five inbound rules expected: SSH and the four service ports"
  }
  assert {
    condition     = alltrue([for r in aws_security_group.hosts.ingress : r.from_port == 22 ? (join(",", r.cidr_blocks) == "203.0.113.7/32" && r.self != true) : (r.self == true && try(length(r.cidr_blocks), 0) == 0 && try(length(r.ipv6_cidr_blocks), 0) == 0)])
    error_message = "SSH must come from admin_cidr only and service ports from the group itself only"
  }
  assert {
    condition     = join(",", sort([for r in aws_security_group.hosts.ingress : tostring(r.from_port)])) == "22,5499,8080,8081,8090"
    error_message = "inbound ports must be 22, 5499, 8080, 8081, 8090"
  }
  assert {
    condition     = alltrue([for r in aws_security_group.hosts.ingress : r.from_port == r.to_port && r.protocol == "tcp"])
    error_message = "inbound rules must be single TCP ports"
  }
  assert {
    condition     = alltrue([for r in aws_security_group.hosts.egress : r.self == true || (r.from_port == 443 && r.to_port == 443 && r.protocol == "tcp")])
    error_message = "outbound must be the group itself or HTTPS only"
  }
  assert {
    condition     = length(aws_default_security_group.this.ingress) == 0 && length(aws_default_security_group.this.egress) == 0
    error_message = "the VPC's default security group must have no rules"
  }
}

run "apply_outputs_inventory_per_role" {
  command = apply

  variables {
    injector_count = 3
  }

  assert {
    condition     = join(",", keys(output.inventory)) == "delay,injector,thread"
    error_message = "inventory roles must be thread, delay, injector (what harness/loadlab/run/topology.py reads)"
  }
  assert {
    condition     = join(",", [for h in output.inventory["injector"] : h.name]) == "injector-0,injector-1,injector-2"
    error_message = "injectors must be listed in order injector-0..N-1"
  }
  assert {
    condition     = alltrue(flatten([for role, hosts in output.inventory : [for h in hosts : h.public_ip != null && h.private_ip != null && join(",", keys(h)) == "name,private_ip,public_ip"]]))
    error_message = "every inventory entry needs name, public_ip and private_ip"
  }
  assert {
    condition     = output.inventory["thread"][0].private_ip == output.thread_service_private_ip && output.inventory["delay"][0].public_ip == output.delay_service_public_ip
    error_message = "per-role IP outputs must agree with the inventory"
  }
  assert {
    condition     = length(output.injector_public_ips) == 3 && length(output.injector_private_ips) == 3
    error_message = "one injector IP per injector"
  }
  assert {
    condition     = output.ready_marker == "/opt/loadlab/.ready" && output.ssh_private_key_path == "tests/fixtures/test_ed25519"
    error_message = "ready_marker / ssh_private_key_path outputs wrong"
  }
}

run "injector_count_drives_instance_count" {
  command = plan

  variables {
    injector_count = 16
  }

  assert {
    condition     = length(aws_instance.host) == 18
    error_message = "16 injectors + 2 service hosts expected"
  }
  assert {
    condition     = length([for h in aws_instance.host : h if h.tags["Role"] == "injector"]) == 16
    error_message = "16 hosts should carry Role=injector"
  }
  assert {
    condition     = output.hourly_cost_usd == 6.887
    error_message = "hourly_cost_usd should grow with the injectors (0.1008 + 0.2016 + 16 x 0.4032 + 18 x (0.005 + 20 x 0.088 / 730))"
  }
}

run "ttl_reaches_user_data_and_outputs" {
  command = plan

  variables {
    ttl_minutes = 45
  }

  assert {
    condition     = alltrue([for h in aws_instance.host : strcontains(h.user_data, "OnBootSec=45min") && strcontains(h.user_data, "shutdown -h +45")])
    error_message = "ttl_minutes must reach the timer and its fallback"
  }
  assert {
    condition     = output.ttl_minutes == 45
    error_message = "ttl_minutes output must follow the variable"
  }
}

run "placement_group_can_be_turned_off" {
  command = plan

  variables {
    use_placement_group = false
  }

  assert {
    # An unset placement_group is unknown (computed) at plan time, so only the group itself can be checked here.
    condition     = length(aws_placement_group.this) == 0
    error_message = "use_placement_group = false must drop the group"
  }
}

run "unpriced_type_gives_null_cost" {
  command = plan

  variables {
    injector_instance_type = "c7i.8xlarge"
  }

  override_data {
    target = data.aws_ec2_instance_type_offerings.by_zone
    values = {
      instance_types = ["c7i.large", "c7i.xlarge", "c7i.8xlarge"]
    }
  }

  # The check block only warns; the run must still plan.
  expect_failures = [check.prices_known]

  assert {
    condition     = output.hourly_cost_usd == null
    error_message = "an instance type without a price must give a null estimate, not a wrong one"
  }
}

run "no_zone_offering_every_type_fails_before_apply" {
  command = plan

  override_data {
    target = data.aws_ec2_instance_type_offerings.by_zone
    values = {
      instance_types = ["c7i.large", "c7i.xlarge"]
    }
  }

  expect_failures = [aws_subnet.public]
}
