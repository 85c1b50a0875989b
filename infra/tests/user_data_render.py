"""The user-data template rendered as Terraform's templatefile() would, with sample values for the variables
instances.tf passes: contract.py checks the result parses (bash -n), `make lint` runs shellcheck over it (the template
itself is not shell until rendered). Standard library only.

Usage: python3 infra/tests/user_data_render.py [TEMPLATE]  (prints the rendered script)"""

import pathlib
import re
import sys

TEMPLATE = pathlib.Path(__file__).resolve().parents[1] / "templates" / "user-data.sh.tftpl"
SAMPLE = {
    "host_name": "injector-0",
    "hostname": "loadlab-injector-0",
    "role": "injector",
    "ttl_minutes": "180",
    "ssh_user": "ec2-user",
    "loadlab_dir": "/opt/loadlab",
    "service_ports": "5499,8080,8081,8090",
}
VARIABLE = re.compile(r"(?<!\$)\$\{(\w+)\}")  # ${name}; $${name} is Terraform's escape for a literal ${name}


def variables(template: str) -> list[str]:
    return VARIABLE.findall(template)


def render(template: str) -> str:
    return VARIABLE.sub(lambda m: SAMPLE.get(m.group(1), m.group(0)), template).replace("$${", "${")


if __name__ == "__main__":
    sys.stdout.write(render(pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else TEMPLATE).read_text()))
