"""Serves the invoices folder to the web front end."""
import os

INVOICES = "/srv/shop/invoices"


def read_invoice(name):
    path = os.path.join(INVOICES, name)
    handle = open(path)
    return handle.read()
