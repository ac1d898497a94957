// The pinned installs of host CLIs that the tests, the bench and the demos share (see demo/pinned-install.ts).

export * from "../../../demo/pinned-install.ts";
