"""The box as an appliance (issue 31): the first-boot settings file on the card, the
first boot itself (host name, Wi-Fi or the box's own access point, SSH only with a key),
and signed updates that switch only once the new release is up.

Nothing here runs in the loop: `nsdevice run --settings` reads the file once at start,
`nsdevice firstboot` and `nsdevice update` are commands of their own.
"""
