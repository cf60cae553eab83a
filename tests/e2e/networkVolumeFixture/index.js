"use strict";
/**
 * End-to-end fixture of a network volume from stack config: `volume` holds NetworkVolumeArgs.
 * Exports `volume` = { id, name, size, monthlyCost }.
 */
const pulumi = require("@pulumi/pulumi");
const { NetworkVolume } = require("pulumi-runpod");

const volume = new NetworkVolume("data", new pulumi.Config().requireObject("volume"));
exports.volume = { id: volume.id, name: volume.name, size: volume.size, monthlyCost: volume.monthlyCost };
