"""The table on every phone: a page the box serves beside its loop (issue 14).

The page runs in its own process (`process`, issue 32) and meets the loop at two points
only, over a socket pair (`wire`): the loop publishes each new `TableView` (`server`'s
`WebSide`, without waiting), and phones' joins, scores and presses come back as the
loop's items. The page's own ASGI layer (`asgi`) answers the requests, its own server
(`serving`, asyncio and h11) serves them; live updates are Server-Sent Events. Nothing
here is imported until the page is on, and the server only in the page's process.
"""
