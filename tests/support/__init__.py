"""What the tests share: the socket test client (``peer``), the leak oracles of every
game (``oracle``), and the servers, stores and engines the tests start."""
