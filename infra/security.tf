locals {
  # thread-service, delay-service, thread-service management (metrics), the db scenario's PostgreSQL (the
  # harness starts its own instance on the delay host; harness/loadlab/run/topology.py DB_PORT). Also reserved out of
  # the ephemeral port range in user-data, so an outgoing connection can never take one of them first.
  service_ports = {
    thread-service = 8080
    delay-service  = 8081
    management     = 8090
    postgres       = 5499
  }
}

# One group for every host. Rules are inline so the group is authoritative: a rule added by hand in the console
# is removed by the next apply.
resource "aws_security_group" "hosts" {
  name        = "${var.name_prefix}-hosts"
  description = "loadlab hosts: SSH from admin_cidr only; service ports only between the hosts themselves"
  vpc_id      = aws_vpc.this.id

  ingress {
    description = "SSH from the operator (admin_cidr) only"
    protocol    = "tcp"
    from_port   = 22
    to_port     = 22
    cidr_blocks = [var.admin_cidr]
  }

  dynamic "ingress" {
    for_each = local.service_ports
    content {
      description = "${ingress.key} port, from the loadlab hosts only"
      protocol    = "tcp"
      from_port   = ingress.value
      to_port     = ingress.value
      self        = true
    }
  }

  egress {
    description = "Any traffic to the other loadlab hosts"
    protocol    = "-1"
    from_port   = 0
    to_port     = 0
    self        = true
  }

  # HTTPS only: the dnf repositories (Corretto, python3) are reached over HTTPS; DNS, NTP and instance
  # metadata use VPC-internal services that security groups do not filter.
  egress {
    description = "HTTPS to package repositories"
    protocol    = "tcp"
    from_port   = 443
    to_port     = 443
    cidr_blocks = ["0.0.0.0/0"]
  }

  tags = {
    Name = "${var.name_prefix}-hosts"
  }
}
