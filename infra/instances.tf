locals {
  common_tags = merge(var.tags, {
    Project   = "loadlab"
    Stack     = var.name_prefix
    ManagedBy = "terraform"
  })

  ssh_user    = "ec2-user"
  loadlab_dir = "/opt/loadlab"

  # Role keys and host names are the harness's own (harness/loadlab/run/topology.py, infra/netns/up.sh): thread,
  # delay, injector-0..N-1, so run folders name hosts the same way on every target.
  instance_types = {
    thread   = var.thread_service_instance_type
    delay    = var.delay_service_instance_type
    injector = var.injector_instance_type
  }
  instance_types_used = distinct(values(local.instance_types))

  injector_names = [for i in range(var.injector_count) : format("injector-%d", i)]

  # Host name => role. Host names are what the harness shows and names folders after, so they carry no prefix.
  hosts = merge(
    { thread = "thread", delay = "delay" },
    { for name in local.injector_names : name => "injector" },
  )
}

data "aws_ssm_parameter" "ami" {
  name = var.ami_ssm_parameter
}

# The user's own public key; the private half never leaves their machine and never enters Terraform state.
resource "aws_key_pair" "this" {
  key_name_prefix = "${var.name_prefix}-"
  public_key      = trimspace(file(pathexpand(var.ssh_public_key_path)))

  tags = {
    Name = "${var.name_prefix}-key"
  }
}

resource "aws_placement_group" "this" {
  count = var.use_placement_group ? 1 : 0

  name     = "${var.name_prefix}-cluster"
  strategy = "cluster"

  tags = {
    Name = "${var.name_prefix}-cluster"
  }
}

resource "aws_instance" "host" {
  #checkov:skip=CKV_AWS_88:The harness reaches each host over SSH from admin_cidr; the security group admits nothing else from outside.
  #checkov:skip=CKV_AWS_126:Detailed CloudWatch monitoring costs extra and is not read; the harness samples CPU and JVM metrics once per second itself.
  #checkov:skip=CKV2_AWS_41:The hosts call no AWS API; an instance profile would only widen what a compromised host could do.
  for_each = local.hosts

  ami                         = data.aws_ssm_parameter.ami.value
  instance_type               = local.instance_types[each.value]
  subnet_id                   = aws_subnet.public.id
  vpc_security_group_ids      = [aws_security_group.hosts.id]
  associate_public_ip_address = true
  key_name                    = aws_key_pair.this.key_name
  placement_group             = var.use_placement_group ? aws_placement_group.this[0].name : null
  ebs_optimized               = true
  monitoring                  = false

  # Cost guard, part 1: an OS-initiated shutdown (the TTL timer in user-data) terminates the instance
  # instead of leaving a stopped host and its volume behind.
  instance_initiated_shutdown_behavior = "terminate"

  metadata_options {
    http_endpoint               = "enabled"
    http_tokens                 = "required"
    http_put_response_hop_limit = 1
  }

  root_block_device {
    volume_type           = "gp3"
    volume_size           = var.root_volume_size_gb
    encrypted             = true
    delete_on_termination = true

    # default_tags do not reach volumes created with an instance.
    tags = merge(local.common_tags, {
      Name = "${var.name_prefix}-${each.key}-root"
      Role = each.value
    })
  }

  user_data = templatefile("${path.module}/templates/user-data.sh.tftpl", {
    host_name     = each.key
    hostname      = "${var.name_prefix}-${each.key}"
    role          = each.value
    ttl_minutes   = var.ttl_minutes
    ssh_user      = local.ssh_user
    loadlab_dir   = local.loadlab_dir
    service_ports = join(",", sort(values(local.service_ports)))
  })

  tags = {
    Name = "${var.name_prefix}-${each.key}"
    Role = each.value
  }

  lifecycle {
    # A newer Amazon Linux image must not replace hosts in the middle of an experiment; `make down` + `make up`
    # picks it up.
    ignore_changes = [ami]
  }
}
