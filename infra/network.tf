# A VPC of its own, so `make down` removes every network resource it created and nothing else.

data "aws_availability_zones" "available" {
  #checkov:skip=CKV_AWS_394:Read only to find the first zone (in name order) offering every chosen type; a zone AWS adds later cannot widen anything, and the stack lives for hours (ttl_minutes). Set availability_zone to pin it.
  state = "available"

  # Local and Wavelength zones carry few instance types and need an opt-in.
  filter {
    name   = "opt-in-status"
    values = ["opt-in-not-required"]
  }
}

# Offerings per zone: a cluster placement group lives in one zone, which must offer every chosen type.
data "aws_ec2_instance_type_offerings" "by_zone" {
  for_each = toset(var.availability_zone == null ? data.aws_availability_zones.available.names : [var.availability_zone])

  location_type = "availability-zone"

  filter {
    name   = "location"
    values = [each.key]
  }

  filter {
    name   = "instance-type"
    values = local.instance_types_used
  }
}

locals {
  usable_zones      = [for zone, offer in data.aws_ec2_instance_type_offerings.by_zone : zone if length(setsubtract(local.instance_types_used, offer.instance_types)) == 0]
  availability_zone = try(local.usable_zones[0], null)
}

resource "aws_vpc" "this" {
  #checkov:skip=CKV2_AWS_11:A benchmark VPC that lives for hours; flow logs need a log group and an IAM role that outlive it, and the hosts' group admits nothing but SSH from admin_cidr.
  cidr_block           = var.vpc_cidr
  enable_dns_support   = true
  enable_dns_hostnames = true

  tags = {
    Name = "${var.name_prefix}-vpc"
  }
}

# Takes over the VPC's default security group and leaves it without rules, so nothing can use it by accident.
resource "aws_default_security_group" "this" {
  vpc_id  = aws_vpc.this.id
  ingress = []
  egress  = []

  tags = {
    Name = "${var.name_prefix}-default-deny"
  }
}

resource "aws_internet_gateway" "this" {
  vpc_id = aws_vpc.this.id

  tags = {
    Name = "${var.name_prefix}-igw"
  }
}

resource "aws_subnet" "public" {
  vpc_id            = aws_vpc.this.id
  cidr_block        = cidrsubnet(var.vpc_cidr, 24 - tonumber(split("/", var.vpc_cidr)[1]), 0)
  availability_zone = local.availability_zone

  # Public addresses are requested per instance instead, so nothing else launched here gets one by default.
  map_public_ip_on_launch = false

  tags = {
    Name = "${var.name_prefix}-public"
  }

  lifecycle {
    precondition {
      condition     = local.availability_zone != null
      error_message = "No availability zone in this region offers all of the chosen instance types together (needed for one cluster placement group). Pick other types or set availability_zone."
    }
  }
}

resource "aws_route_table" "public" {
  vpc_id = aws_vpc.this.id

  route {
    cidr_block = "0.0.0.0/0"
    gateway_id = aws_internet_gateway.this.id
  }

  tags = {
    Name = "${var.name_prefix}-public"
  }
}

resource "aws_route_table_association" "public" {
  subnet_id      = aws_subnet.public.id
  route_table_id = aws_route_table.public.id
}
