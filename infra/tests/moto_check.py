"""What an apply against moto_server left behind (`applied`), and that a destroy left nothing (`destroyed`).

Called by moto_apply.sh with AWS_ENDPOINT_URL pointing at moto on loopback. Reads the real EC2 API view (instances,
volumes, security groups, tags) rather than Terraform's own state, so it checks what AWS would have been asked for.
Prints one PASS/FAIL line per check; exit 1 on any failure.
"""

import base64
import ipaddress
import json
import sys

import boto3

mode = sys.argv[1]
results = []


def check(name, ok, detail=""):
    results.append(bool(ok))
    print(f"{'PASS' if ok else 'FAIL'} moto {mode}: {name}" + ("" if ok else f" -- {detail}"))


ec2 = boto3.client("ec2")
ssm = boto3.client("ssm")
stack = [{"Name": "tag:Stack", "Values": ["loadlab"]}]


def live_instances():
    pages = ec2.describe_instances(Filters=stack + [{"Name": "instance-state-name", "Values": ["pending", "running"]}])
    return [i for r in pages["Reservations"] for i in r["Instances"]]


if mode == "applied":
    outputs = json.load(open(sys.argv[2]))
    inventory = outputs["inventory"]["value"]
    check("inventory has 1 thread, 1 delay, 2 injector hosts",
          [len(inventory.get(r, [])) for r in ("thread", "delay", "injector")] == [1, 1, 2], inventory)
    hosts = [h for role in inventory.values() for h in role]
    subnet = ipaddress.ip_network("10.77.0.0/24")
    check("every host has a public IP and a private IP in 10.77.0.0/24",
          all(h["public_ip"] and ipaddress.ip_address(h["private_ip"]) in subnet for h in hosts), hosts)
    check("ssh_user is ec2-user", outputs["ssh_user"]["value"] == "ec2-user")
    check("hourly_cost_usd is a number", isinstance(outputs["hourly_cost_usd"]["value"], (int, float)))
    check("hosts run in the first zone offering every type", outputs["availability_zone"]["value"] == "eu-west-1a",
          outputs["availability_zone"]["value"])

    instances = live_instances()
    check("4 instances running, tagged Stack=loadlab", len(instances) == 4, len(instances))
    al2023 = ssm.get_parameter(Name="/aws/service/ami-amazon-linux-latest/al2023-ami-kernel-default-x86_64")["Parameter"]["Value"]
    by_ip = {i.get("PrivateIpAddress"): i for i in instances}
    check("inventory private IPs are the instances' addresses", {h["private_ip"] for h in hosts} == set(by_ip))
    for inst in instances:
        name = next((t["Value"] for t in inst.get("Tags", []) if t["Key"] == "Name"), inst["InstanceId"])
        iid = inst["InstanceId"]
        tags = {t["Key"]: t["Value"] for t in inst.get("Tags", [])}
        check(f"{name}: AMI is the AL2023 public parameter", inst["ImageId"] == al2023, inst["ImageId"])
        check(f"{name}: IMDSv2 required", inst.get("MetadataOptions", {}).get("HttpTokens") == "required",
              inst.get("MetadataOptions"))
        behaviour = ec2.describe_instance_attribute(InstanceId=iid, Attribute="instanceInitiatedShutdownBehavior")
        check(f"{name}: OS shutdown terminates", behaviour["InstanceInitiatedShutdownBehavior"]["Value"] == "terminate")
        user_data = ec2.describe_instance_attribute(InstanceId=iid, Attribute="userData").get("UserData", {}).get("Value", "")
        user_data = base64.b64decode(user_data).decode() if user_data else ""
        check(f"{name}: user-data arms the 180-minute TTL", "OnBootSec=180min" in user_data)
        check(f"{name}: default tags and Role applied", tags.get("Project") == "loadlab" and tags.get("ManagedBy") == "terraform"
              and tags.get("Role") in ("thread", "delay", "injector"), tags)
        volumes = ec2.describe_volumes(Filters=[{"Name": "attachment.instance-id", "Values": [iid]}])["Volumes"]
        check(f"{name}: root volume encrypted gp3, tagged",
              volumes and all(v["Encrypted"] and v["VolumeType"] == "gp3"
                              and any(t["Key"] == "Stack" for t in v.get("Tags", [])) for v in volumes),
              [(v["Encrypted"], v["VolumeType"], v.get("Tags")) for v in volumes])

    groups = ec2.describe_security_groups(Filters=[{"Name": "group-name", "Values": ["loadlab-hosts"]}])["SecurityGroups"]
    check("one loadlab-hosts security group", len(groups) == 1)
    if groups:
        group = groups[0]
        rules = group["IpPermissions"]
        ssh = [r for r in rules if r.get("FromPort") == 22]
        check("SSH only from admin_cidr", len(ssh) == 1 and [x["CidrIp"] for x in ssh[0].get("IpRanges", [])] == ["203.0.113.7/32"]
              and not ssh[0].get("Ipv6Ranges") and not ssh[0].get("UserIdGroupPairs"), ssh)
        service = [r for r in rules if r.get("FromPort") != 22]
        check("5499, 8080, 8081, 8090 only from the group itself",
              sorted(r["FromPort"] for r in service) == [5499, 8080, 8081, 8090]
              and all(not r.get("IpRanges") and not r.get("Ipv6Ranges")
                      and [p["GroupId"] for p in r.get("UserIdGroupPairs", [])] == [group["GroupId"]] for r in service),
              service)
        vpc_id = group["VpcId"]
        default = ec2.describe_security_groups(Filters=[{"Name": "vpc-id", "Values": [vpc_id]},
                                                        {"Name": "group-name", "Values": ["default"]}])["SecurityGroups"]
        check("the VPC's default security group has no rules",
              default and not default[0]["IpPermissions"] and not default[0]["IpPermissionsEgress"], default)

elif mode == "destroyed":
    check("no loadlab instance left running", not live_instances())
    check("no loadlab VPC left", not ec2.describe_vpcs(Filters=stack)["Vpcs"])
    check("no loadlab security group left",
          not ec2.describe_security_groups(Filters=[{"Name": "group-name", "Values": ["loadlab-hosts"]}])["SecurityGroups"])
    check("no loadlab key pair left", not [k for k in ec2.describe_key_pairs()["KeyPairs"] if k["KeyName"].startswith("loadlab-")])
    check("no loadlab volume left", not ec2.describe_volumes(Filters=stack)["Volumes"])
else:
    sys.exit(f"usage: {sys.argv[0]} applied OUTPUTS.json | destroyed")

sys.exit(1 if results.count(False) else 0)
