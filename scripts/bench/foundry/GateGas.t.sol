// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {TRUST_VM} from "trustgate/testing/TrustVm.sol";
import {TrustScoreOracle} from "trustgate/oracle/TrustScoreOracle.sol";
import {MockIdentityRegistry} from "trustgate/testing/MockIdentityRegistry.sol";
import {GatedAction} from "trustgate/fixtures/GatedAction.sol";
import {ThresholdOnlyAction} from "trustgate/fixtures/ThresholdOnlyAction.sol";
import {TrustGated} from "trustgate/TrustGated.sol";
import {TrustPolicy} from "trustgate/TrustTypes.sol";

/// @dev forge's `vm.lastCallGas()` result (declared here: the kit's TrustVm declares only what its helpers use).
struct Gas {
    uint64 gasLimit;
    uint64 gasTotalUsed;
    uint64 gasMemoryUsed;
    int64 gasRefunded;
    uint64 gasRemaining;
}

interface IGasVm {
    function lastCallGas() external view returns (Gas memory gas);
}

/// @title The gate's gas under forge, for `npm run bench` (scripts/bench/forge-gas.ts)
/// @notice The same contracts, records and calls as `measureGateGas` (scripts/bench/gas.ts): each call made twice by
/// the same sender and the second one's gas logged. Run with `--isolate`, where every top-level call is its own
/// transaction, `lastCallGas().gasTotalUsed` is the whole transaction's gas, as a Hardhat receipt's `gasUsed`. Not
/// part of the forge suite (FOUNDRY_TEST selects this folder): its figures are printed, not asserted.
contract GateGasTest {
    event log_named_uint(string key, uint256 val);

    uint256 internal constant BASE = 8453;
    TrustScoreOracle internal oracle;
    MockIdentityRegistry internal identity;
    address internal owner = address(0xA11CE);
    address internal wallet = address(0xB0B);

    function setUp() public {
        TRUST_VM.warp(1_800_000_000);
        oracle = new TrustScoreOracle(address(this));
        identity = new MockIdentityRegistry();
        TRUST_VM.prank(owner);
        identity.register();
        TRUST_VM.prank(owner);
        identity.setAgentWallet(1, wallet);
        TrustScoreOracle.ScoreUpdate[] memory updates = new TrustScoreOracle.ScoreUpdate[](1);
        updates[0] = TrustScoreOracle.ScoreUpdate(1, BASE, "erc8004", 80, 3, 0, uint40(block.timestamp));
        oracle.publish(updates);
    }

    function config(bool requireController) internal view returns (TrustGated.TrustGateConfig memory) {
        return TrustGated.TrustGateConfig(address(oracle), address(identity), BASE, "erc8004", TrustPolicy(51, 2, 36 * 3600, requireController));
    }

    function steady(address target, address sender) internal returns (uint256) {
        TRUST_VM.prank(sender);
        GatedAction(target).act(1);
        TRUST_VM.prank(sender);
        GatedAction(target).act(1);
        return IGasVm(address(TRUST_VM)).lastCallGas().gasTotalUsed;
    }

    /// @notice Logs the steady-state gas of the threshold-only baseline and the gate with and without the controller.
    function test_gateGas() public {
        ThresholdOnlyAction threshold = new ThresholdOnlyAction(address(oracle), BASE, "erc8004", 51);
        GatedAction all = new GatedAction(config(false), address(this));
        GatedAction ctl = new GatedAction(config(true), address(this));
        emit log_named_uint("baseline", steady(address(threshold), owner));
        emit log_named_uint("all", steady(address(all), owner));
        emit log_named_uint("owner", steady(address(ctl), owner));
        emit log_named_uint("wallet", steady(address(ctl), wallet));
    }
}
