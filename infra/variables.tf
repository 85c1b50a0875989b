# Secure defaults follow terraform-aws-modules/terraform-aws-ec2-instance (IMDSv2 required, hop limit 1,
# encrypted root volume); everything the user must decide (who may SSH in) has no default.

variable "region" {
  description = "AWS region for every resource."
  type        = string
  default     = "eu-west-1"

  validation {
    condition     = can(regex("^[a-z]{2}(-gov|-iso[a-z]?)?-[a-z]+-[0-9]+$", var.region))
    error_message = "region must be an AWS region name such as eu-west-1."
  }
}

variable "name_prefix" {
  description = "Prefix of every resource name and the Stack tag. Unique per account and region: key pair and placement group names are region-wide."
  type        = string
  default     = "loadlab"

  validation {
    condition     = can(regex("^[a-z][a-z0-9-]{0,22}[a-z0-9]$", var.name_prefix))
    error_message = "name_prefix must be 2-24 characters: lowercase letters, digits and hyphens, starting with a letter and not ending with a hyphen."
  }
}

variable "admin_cidr" {
  description = "The only source allowed to SSH into the hosts, e.g. your public address as 203.0.113.7/32. Required: there is no safe default."
  type        = string

  # IPv4 only: the VPC and the hosts have no IPv6 addresses, so an IPv6 source could never connect.
  validation {
    condition     = can(cidrnetmask(var.admin_cidr))
    error_message = "admin_cidr must be an IPv4 CIDR block such as 203.0.113.7/32 (an address alone is not enough; the hosts have no IPv6)."
  }

  # The prefix check rejects 0.0.0.0/0 and ::/0 and anything nearly as wide.
  validation {
    condition     = try(tonumber(split("/", var.admin_cidr)[1]) >= 8, true)
    error_message = "admin_cidr must not open SSH to the internet: 0.0.0.0/0, ::/0 and any prefix shorter than /8 are refused. Use your own address, e.g. 203.0.113.7/32."
  }

  # The provider refuses host bits in a rule's CIDR at apply time; failing at plan time is kinder.
  validation {
    condition     = try(cidrsubnet(var.admin_cidr, 0, 0) == var.admin_cidr, true)
    error_message = "admin_cidr must be written as a network address with no host bits set (203.0.113.0/24, not 203.0.113.7/24)."
  }
}

variable "ssh_public_key_path" {
  description = "Path of the OpenSSH public key (ssh-ed25519 or ssh-rsa, the types EC2 imports) installed for ec2-user. Only the public half is read; no private key is generated or stored."
  type        = string
  default     = "~/.ssh/id_ed25519.pub"

  validation {
    condition     = can(file(pathexpand(var.ssh_public_key_path)))
    error_message = "ssh_public_key_path: no readable file there. Create a key with `ssh-keygen -t ed25519` or point the variable at your own .pub file."
  }

  validation {
    condition     = !can(file(pathexpand(var.ssh_public_key_path))) || can(regex("^(ssh-ed25519|ssh-rsa) [A-Za-z0-9+/=]+", file(pathexpand(var.ssh_public_key_path))))
    error_message = "ssh_public_key_path must hold an OpenSSH public key starting with ssh-ed25519 or ssh-rsa (EC2 imports no other type). Point it at the .pub file, never at the private key."
  }
}

variable "thread_service_instance_type" {
  description = "Instance type of the thread-service host. Deliberately the smallest host, so the service under test, not the injectors, is the limit."
  type        = string
  default     = "c7i.large"

  validation {
    condition     = can(regex("^[a-z][a-z0-9-]*\\.[a-z0-9-]+$", var.thread_service_instance_type))
    error_message = "thread_service_instance_type must look like an EC2 instance type, e.g. c7i.large."
  }
}

variable "delay_service_instance_type" {
  description = "Instance type of the delay-service host: twice the thread-service host, so the downstream never saturates first."
  type        = string
  default     = "c7i.xlarge"

  validation {
    condition     = can(regex("^[a-z][a-z0-9-]*\\.[a-z0-9-]+$", var.delay_service_instance_type))
    error_message = "delay_service_instance_type must look like an EC2 instance type, e.g. c7i.xlarge."
  }
}

variable "injector_instance_type" {
  description = "Instance type of each load-injector (Gatling) host."
  type        = string
  default     = "c7i.2xlarge"

  validation {
    condition     = can(regex("^[a-z][a-z0-9-]*\\.[a-z0-9-]+$", var.injector_instance_type))
    error_message = "injector_instance_type must look like an EC2 instance type, e.g. c7i.2xlarge."
  }
}

variable "injector_count" {
  description = "Number of load-injector hosts; the harness splits the arrival rate evenly between them."
  type        = number
  default     = 1

  validation {
    condition     = var.injector_count >= 1 && var.injector_count <= 16 && floor(var.injector_count) == var.injector_count
    error_message = "injector_count must be a whole number from 1 to 16."
  }
}

variable "ttl_minutes" {
  description = "Cost guard: every host powers itself off, and so terminates, this many minutes after boot, whatever else happens."
  type        = number
  default     = 180

  validation {
    condition     = var.ttl_minutes >= 15 && var.ttl_minutes <= 1440 && floor(var.ttl_minutes) == var.ttl_minutes
    error_message = "ttl_minutes must be a whole number from 15 to 1440 (24 hours)."
  }
}

variable "root_volume_size_gb" {
  description = "Size of each host's encrypted gp3 root volume in GiB."
  type        = number
  default     = 20

  validation {
    condition     = var.root_volume_size_gb >= 8 && var.root_volume_size_gb <= 200 && floor(var.root_volume_size_gb) == var.root_volume_size_gb
    error_message = "root_volume_size_gb must be a whole number from 8 (the AMI's own size) to 200."
  }
}

variable "vpc_cidr" {
  description = "Address range of the dedicated VPC; the hosts' public subnet takes its first /24."
  type        = string
  default     = "10.77.0.0/16"

  validation {
    condition     = can(cidrnetmask(var.vpc_cidr)) && try(tonumber(split("/", var.vpc_cidr)[1]) >= 16 && tonumber(split("/", var.vpc_cidr)[1]) <= 24, false)
    error_message = "vpc_cidr must be an IPv4 CIDR block from /16 to /24, e.g. 10.77.0.0/16."
  }
}

variable "availability_zone" {
  description = "Availability zone for all hosts (a cluster placement group spans one zone). null picks the first zone of the region that offers every chosen instance type."
  type        = string
  default     = null

  validation {
    condition     = var.availability_zone == null || can(regex("^[a-z]{2}(-gov|-iso[a-z]?)?-[a-z]+-[0-9]+[a-z]$", var.availability_zone))
    error_message = "availability_zone must be null or a zone name such as eu-west-1a."
  }
}

variable "use_placement_group" {
  description = "Launch the hosts in a cluster placement group (lowest, steadiest latency between them). Set false if AWS reports insufficient capacity for the group."
  type        = bool
  default     = true
}

variable "ami_ssm_parameter" {
  description = "Public SSM parameter holding the AMI ID. The default is the latest Amazon Linux 2023 for x86_64, which the default c7i types need."
  type        = string
  default     = "/aws/service/ami-amazon-linux-latest/al2023-ami-kernel-default-x86_64"

  validation {
    condition     = startswith(var.ami_ssm_parameter, "/aws/service/")
    error_message = "ami_ssm_parameter must be an AWS public parameter (starting with /aws/service/), so the image comes from AWS itself."
  }
}

variable "tags" {
  description = "Extra tags for every resource (added to Project, Stack and ManagedBy)."
  type        = map(string)
  default     = {}
}

variable "prices_usd" {
  description = "On-demand prices used only for the hourly_cost_usd estimate: instance_hour per instance type, public_ipv4_hour per public address, gp3_gb_month per GiB of root volume. The defaults are eu-west-1 estimates; see infra/README.md for their source and date."
  type = object({
    instance_hour    = map(number)
    public_ipv4_hour = number
    gp3_gb_month     = number
  })
  default = {
    instance_hour = {
      "c7i.large"   = 0.1008
      "c7i.xlarge"  = 0.2016
      "c7i.2xlarge" = 0.4032
      "c7i.4xlarge" = 0.8064
    }
    public_ipv4_hour = 0.005
    gp3_gb_month     = 0.088
  }

  validation {
    condition     = alltrue([for p in values(var.prices_usd.instance_hour) : p >= 0]) && var.prices_usd.public_ipv4_hour >= 0 && var.prices_usd.gp3_gb_month >= 0
    error_message = "prices_usd must not hold negative prices."
  }
}
