# Estimate only: list prices from var.prices_usd (see infra/README.md for source and date). Counts the instances,
# one public IPv4 address per host and the gp3 root volumes; data transfer inside one zone is free.
locals {
  host_instance_types = [for name, role in local.hosts : local.instance_types[role]]
  unpriced_types      = sort(distinct([for t in local.host_instance_types : t if !contains(keys(var.prices_usd.instance_hour), t)]))

  hourly_cost_usd = length(local.unpriced_types) > 0 ? null : tonumber(format("%.4f",
    sum([for t in local.host_instance_types : var.prices_usd.instance_hour[t]])
    + length(local.hosts) * var.prices_usd.public_ipv4_hour
    + length(local.hosts) * var.root_volume_size_gb * var.prices_usd.gp3_gb_month / 730
  ))
}

check "prices_known" {
  assert {
    condition     = length(local.unpriced_types) == 0
    error_message = "No price in prices_usd.instance_hour for ${join(", ", local.unpriced_types)}: hourly_cost_usd is null. Add the on-demand price for region ${var.region}."
  }
}
