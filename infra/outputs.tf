locals {
  host_entries = {
    for name, role in local.hosts : name => {
      name       = name
      public_ip  = aws_instance.host[name].public_ip
      private_ip = aws_instance.host[name].private_ip
    }
  }
}

output "inventory" {
  description = "What the harness reads: role (thread = thread-service host, delay = delay-service host, injector) => list of {name, public_ip, private_ip}. Injectors in order injector-0..N-1."
  value = {
    thread   = [local.host_entries["thread"]]
    delay    = [local.host_entries["delay"]]
    injector = [for name in local.injector_names : local.host_entries[name]]
  }
}

output "ssh_user" {
  description = "Login user on every host (Amazon Linux)."
  value       = local.ssh_user
}

output "ssh_private_key_path" {
  description = "Where the private half of ssh_public_key_path is expected (the same path without .pub); a path only, never the key."
  value       = trimsuffix(pathexpand(var.ssh_public_key_path), ".pub")
}

output "loadlab_dir" {
  description = "Directory prepared on every host for the harness's files, owned by ssh_user."
  value       = local.loadlab_dir
}

output "ready_marker" {
  description = "File user-data writes last (JSON: name, role, ttl_minutes, poweroff_at_epoch, java); wait for it before using a host. A sibling .failed means preparation failed."
  value       = "${local.loadlab_dir}/.ready"
}

output "ttl_minutes" {
  description = "Minutes after boot at which every host shuts itself down and terminates."
  value       = var.ttl_minutes
}

output "instance_types" {
  description = "Instance type per role (thread, delay, injector)."
  value       = local.instance_types
}

output "hourly_cost_usd" {
  description = "Estimated on-demand cost per hour of the whole stack in USD (instances, public IPv4, root volumes); null when an instance type has no price in prices_usd."
  value       = local.hourly_cost_usd
}

output "region" {
  description = "Region of the stack."
  value       = var.region
}

output "availability_zone" {
  description = "Zone all hosts run in."
  value       = aws_subnet.public.availability_zone
}

output "thread_service_public_ip" {
  description = "Public IP of the thread-service host (SSH from admin_cidr only)."
  value       = aws_instance.host["thread"].public_ip
}

output "thread_service_private_ip" {
  description = "Private IP of the thread-service host: the address injectors send load to."
  value       = aws_instance.host["thread"].private_ip
}

output "delay_service_public_ip" {
  description = "Public IP of the delay-service host (SSH from admin_cidr only)."
  value       = aws_instance.host["delay"].public_ip
}

output "delay_service_private_ip" {
  description = "Private IP of the delay-service host: the address the thread-service calls."
  value       = aws_instance.host["delay"].private_ip
}

output "injector_public_ips" {
  description = "Public IPs of the injector hosts, injector-0..N-1."
  value       = [for name in local.injector_names : aws_instance.host[name].public_ip]
}

output "injector_private_ips" {
  description = "Private IPs of the injector hosts, injector-0..N-1."
  value       = [for name in local.injector_names : aws_instance.host[name].private_ip]
}
