"""Static contract of infra/: the names the harness reads and the safety properties, read from the HCL itself.

Complements the terraform tests (behaviour against a real provider schema): this reads the real versions.tf, not the
relaxed copy, and the user-data template as written. Parser: the `hcl2` module that checkov pins
(bc-python-hcl2 0.4.3), so it needs no second package (python-hcl2 installs the same module name and would break
checkov in a shared venv). Prints one PASS/FAIL line per check; exit 1 on any failure.
"""

import pathlib
import re
import subprocess
import sys

import hcl2
import user_data_render  # beside this file

INFRA = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parents[1])
TEMPLATE = INFRA / "templates" / "user-data.sh.tftpl"

results = []


def check(name, ok, detail=""):
    results.append(bool(ok))
    print(f"{'PASS' if ok else 'FAIL'} contract: {name}" + ("" if ok else f" -- {detail}"))


def first(block, key, default=None):
    value = block.get(key, [default])
    return value[0] if isinstance(value, list) and value else value


tf_files = sorted(INFRA.glob("*.tf"))
raw = {f.name: f.read_text() for f in tf_files}
parsed = {}
for f in tf_files:
    try:
        parsed[f.name] = hcl2.loads(raw[f.name])
    except Exception as exc:  # a parse error is a contract failure, not a crash
        check(f"{f.name} parses", False, str(exc).splitlines()[0])

variables, outputs, resources, providers, terraform_blocks = {}, {}, {}, {}, []
for doc in parsed.values():
    for item in doc.get("variable", []):
        variables.update(item)
    for item in doc.get("output", []):
        outputs.update(item)
    for item in doc.get("resource", []):
        for rtype, named in item.items():
            for rname, body in named.items():
                resources[f"{rtype}.{rname}"] = body
    for item in doc.get("provider", []):
        providers.update(item)
    terraform_blocks += doc.get("terraform", [])

# --- versions -----------------------------------------------------------------------------------------------------
check("exactly one terraform block with required_providers (the one line run.sh relaxes)",
      sum(1 for t in terraform_blocks if "required_providers" in t) == 1)
tf = next((t for t in terraform_blocks if "required_providers" in t), {})
req = first(tf, "required_version", "")
m = re.fullmatch(r">=\s*1\.(\d+)(\.\d+)?", req or "")
check("required_version is '>= 1.6' or newer", m and int(m.group(1)) >= 6, req)
aws = (first(tf, "required_providers", {}) or {}).get("aws", [{}])
aws = aws[0] if isinstance(aws, list) else aws
check("aws provider is hashicorp/aws", aws.get("source") == "hashicorp/aws", aws)
m = re.fullmatch(r"~>\s*(\d+)\.\d+", aws.get("version", ""))
check("aws provider constraint is the current major (~> 6.x or newer)", m and int(m.group(1)) >= 6, aws.get("version"))
check("provider sets default_tags", "default_tags" in providers.get("aws", {}))

# --- variables ----------------------------------------------------------------------------------------------------
for name, body in sorted(variables.items()):
    check(f"variable {name} has a type and a description", "type" in body and first(body, "description"))


def validations(name):
    return variables.get(name, {}).get("validation", [])


check("variable admin_cidr exists and is required (no default)", "admin_cidr" in variables and "default" not in variables["admin_cidr"])
check("admin_cidr validation refuses 0.0.0.0/0 and ::/0",
      any("0.0.0.0/0" in first(v, "error_message", "") and "::/0" in first(v, "error_message", "") for v in validations("admin_cidr"))
      and any("cidrnetmask" in first(v, "condition", "") for v in validations("admin_cidr")))
check("variable ssh_public_key_path defaults to ~/.ssh/id_ed25519.pub and checks the file",
      first(variables.get("ssh_public_key_path", {}), "default") == "~/.ssh/id_ed25519.pub"
      and any("file(" in first(v, "condition", "") for v in validations("ssh_public_key_path")))
check("variable injector_count defaults to 1 and is validated 1..16",
      first(variables.get("injector_count", {}), "default") == 1
      and any(">= 1" in first(v, "condition", "") and "<= 16" in first(v, "condition", "") for v in validations("injector_count")))
check("variable ttl_minutes defaults to 180 and is validated 15..1440",
      first(variables.get("ttl_minutes", {}), "default") == 180
      and any(">= 15" in first(v, "condition", "") and "<= 1440" in first(v, "condition", "") for v in validations("ttl_minutes")))
for var, default in [("thread_service_instance_type", "c7i.large"), ("delay_service_instance_type", "c7i.xlarge"),
                     ("injector_instance_type", "c7i.2xlarge"), ("region", "eu-west-1"), ("name_prefix", "loadlab")]:
    check(f"variable {var} defaults to {default}", first(variables.get(var, {}), "default") == default)

# --- outputs ------------------------------------------------------------------------------------------------------
for name in ["inventory", "ssh_user", "hourly_cost_usd", "ttl_minutes", "instance_types",
             "thread_service_public_ip", "thread_service_private_ip", "delay_service_public_ip",
             "delay_service_private_ip", "injector_public_ips", "injector_private_ips", "ready_marker"]:
    check(f"output {name} exists with a description", name in outputs and first(outputs[name], "description"))
check("output ssh_user is ec2-user (via local.ssh_user)",
      first(outputs.get("ssh_user", {}), "value") == "${local.ssh_user}" and 'ssh_user    = "ec2-user"' in raw.get("instances.tf", ""))
check("output ttl_minutes is var.ttl_minutes", first(outputs.get("ttl_minutes", {}), "value") == "${var.ttl_minutes}")

# --- instances ----------------------------------------------------------------------------------------------------
instances = {k: v for k, v in resources.items() if k.startswith("aws_instance.")}
check("at least one aws_instance", instances)
for key, body in instances.items():
    meta = first(body, "metadata_options", {}) or {}
    root = first(body, "root_block_device", {}) or {}
    check(f"{key}: IMDSv2 required (http_tokens = \"required\")", first(meta, "http_tokens") == "required")
    check(f"{key}: root volume encrypted gp3", first(root, "encrypted") is True and first(root, "volume_type") == "gp3")
    check(f"{key}: root volume tagged", "tags" in root)
    check(f"{key}: instance_initiated_shutdown_behavior = \"terminate\"",
          first(body, "instance_initiated_shutdown_behavior") == "terminate")
    user_data = first(body, "user_data", "")
    check(f"{key}: user_data renders templates/user-data.sh.tftpl with ttl_minutes = var.ttl_minutes",
          "templatefile(" in user_data and "templates/user-data.sh.tftpl" in user_data
          and re.search(r"'ttl_minutes':\s*'\$\{var\.ttl_minutes\}'", user_data), user_data[:200])
    check(f"{key}: key pair is the user's public key from ssh_public_key_path",
          first(resources.get("aws_key_pair.this", {}), "public_key", "").find("var.ssh_public_key_path") >= 0)

check("no private key is generated (no tls_private_key, no private_key attribute)",
      not any(k.startswith("tls_private_key.") for k in resources)
      and not any(re.search(r"^\s*private_key\s*=", text, re.M) for text in raw.values()))
check("placement group uses the cluster strategy",
      first(resources.get("aws_placement_group.this", {}), "strategy") == "cluster")
check("AMI comes from the Amazon Linux 2023 public SSM parameter",
      "al2023-ami" in str(first(variables.get("ami_ssm_parameter", {}), "default", "")) and "aws_ssm_parameter" in raw.get("instances.tf", ""))

# --- security groups ----------------------------------------------------------------------------------------------
sg = resources.get("aws_security_group.hosts", {})
ingress = sg.get("ingress", [])
dynamic_ingress = [d["ingress"] for d in sg.get("dynamic", []) if "ingress" in d]
check("static ingress is SSH (22) from var.admin_cidr only",
      len(ingress) == 1 and first(ingress[0], "from_port") == 22 and first(ingress[0], "to_port") == 22
      and first(ingress[0], "cidr_blocks") == ["${var.admin_cidr}"] and "ipv6_cidr_blocks" not in ingress[0])
check("service-port ingress is self-referencing only",
      len(dynamic_ingress) == 1 and first(first(dynamic_ingress[0], "content", {}), "self") is True
      and "cidr_blocks" not in first(dynamic_ingress[0], "content", {}))
service_ports = {}
for doc in parsed.values():
    for item in doc.get("locals", []):
        service_ports.update(item.get("service_ports", [{}])[0] if "service_ports" in item else {})
check("service ports are thread-service 8080, delay-service 8081, management 8090, postgres 5499",
      service_ports == {"thread-service": 8080, "delay-service": 8081, "management": 8090, "postgres": 5499},
      service_ports)
open_world = [k for k, body in resources.items() for rule in body.get("ingress", []) if isinstance(rule, dict)
              if any(c in ("0.0.0.0/0", "::/0") for c in (first(rule, "cidr_blocks", []) or []) + (first(rule, "ipv6_cidr_blocks", []) or []))]
check("no ingress rule from 0.0.0.0/0 or ::/0 anywhere", not open_world, open_world)
check("the VPC's default security group is taken over with no rules",
      first(resources.get("aws_default_security_group.this", {}), "ingress") == []
      and first(resources.get("aws_default_security_group.this", {}), "egress") == [])

# --- checkov skips ------------------------------------------------------------------------------------------------
skips = [(name, line.strip()) for name, text in raw.items() for line in text.splitlines() if "checkov:skip" in line]
bad = [s for s in skips if not re.search(r"#checkov:skip=CKV\d?_AWS_\d+:\S.{20,}", s[1])]
check(f"every checkov skip ({len(skips)}) names one check and gives a reason", not bad, bad)

# --- user-data template -------------------------------------------------------------------------------------------
tpl = TEMPLATE.read_text() if TEMPLATE.exists() else ""
check("user-data template exists", tpl)
for needle, what in [
    ("OnBootSec=${ttl_minutes}min", "TTL timer from ttl_minutes"),
    ("shutdown -h", "the timer/fallback shuts down (and so terminates)"),
    ("shutdown -h +${ttl_minutes}", "fallback shutdown -h +ttl"),
    ("packages=(java-25-amazon-corretto-headless java-21-amazon-corretto-headless", "installs Corretto 25 and 21"),
    ('dnf install -y "$${packages[@]}"', "installs the packages with dnf"),
    ("packages+=(postgresql15-server)", "the delay host gets PostgreSQL's server (not started at boot)"),
    ("alternatives --set java /usr/lib/jvm/java-25-amazon-corretto/bin/java", "java stays 25 beside 21"),
    ("python3", "installs python3"),
    ("net.ipv4.ip_local_port_range = 1024 65000", "ephemeral port range"),
    ("net.ipv4.tcp_tw_reuse = 1", "TIME-WAIT reuse"),
    ("net.core.somaxconn = 4096", "listen backlog"),
    ("nofile 1048576", "nofile limits"),
    ("DefaultLimitNOFILE", "nofile for systemd services"),
    ("net.ipv4.ip_local_reserved_ports = ${service_ports}", "service ports kept out of the ephemeral range"),
    ("mkdir -p ${loadlab_dir}", "creates the loadlab dir"),
    ("${loadlab_dir}/.ready", "writes the ready marker"),
    ("${loadlab_dir}/.failed", "writes a failure marker"),
]:
    check(f"user-data: {what}", needle in tpl, needle)
ttl_at = tpl.find("enable --now loadlab-ttl.timer")
dnf_at = tpl.find("dnf install")
check("user-data: the TTL is armed before anything that can fail (dnf)", 0 <= ttl_at < dnf_at)
check("user-data: ready marker is the last step", tpl.rstrip().endswith("${loadlab_dir}/.ready"))
check("user-data: starts with a shebang and set -euo pipefail", tpl.startswith("#!/bin/bash") and "set -euo pipefail" in tpl)

# --- tfvars example -----------------------------------------------------------------------------------------------
example = (INFRA / "terraform.tfvars.example").read_text() if (INFRA / "terraform.tfvars.example").exists() else ""
check("terraform.tfvars.example sets admin_cidr to a single address, never the world",
      re.search(r'^admin_cidr\s*=\s*"[0-9.]+/32"', example, re.M)
      and not re.search(r'^\s*admin_cidr\s*=\s*"(0\.0\.0\.0|::)/0"', example, re.M))

# Rendered with sample values, the script must at least be valid bash (`make lint` runs shellcheck over it too).
if tpl:
    leftover = user_data_render.variables(tpl)
    check("user-data: uses only the variables instances.tf passes", set(leftover) <= set(user_data_render.SAMPLE),
          set(leftover) - set(user_data_render.SAMPLE))
    syntax = subprocess.run(["bash", "-n"], input=user_data_render.render(tpl), text=True, capture_output=True)
    check("user-data: renders to valid bash (bash -n)", syntax.returncode == 0, syntax.stderr.strip())

sys.exit(1 if results.count(False) else 0)
