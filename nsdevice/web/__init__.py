"""The table on every phone: a page the box serves beside its loop (issue 14).

The web side runs in its own thread and meets the loop at two points only: the loop
publishes each new `TableView` to the `Stage` without waiting, and phones' scores go into
the loop's inbox as `Scored` items. Starlette answers the requests, uvicorn serves them;
live updates are Server-Sent Events. Nothing here is imported until the page is on.
"""
