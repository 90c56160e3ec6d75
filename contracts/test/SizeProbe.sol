// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;
import {TrustAttestationLib} from "../attestation/TrustAttestationLib.sol";
import {TrustJwsLib} from "../attestation/TrustJwsLib.sol";
contract SizeParse { function f(bytes calldata j) external pure returns (uint256) { return TrustAttestationLib.parse(j).agentId; } }
contract SizeHeader { function f(bytes calldata j) external pure returns (uint256) { return TrustAttestationLib.readJwsHeader(j).kidLength; } }
contract SizeBoth { function f(bytes calldata j) external pure returns (uint256) { return TrustAttestationLib.parse(j).agentId; }
  function g(bytes calldata j) external pure returns (uint256) { return TrustAttestationLib.readJwsHeader(j).kidLength; } }
contract SizeDecode { function f(bytes calldata j) external pure returns (uint256) { return TrustJwsLib.decode(j, 0, j.length).length; } }
contract SizeVerify { function f(bytes32 d, bytes calldata s) external view returns (bool) { return TrustAttestationLib.verifyDigest(d, s, 0, 0); } }
