// SPDX-License-Identifier: MIT
// Every cheatcode `trustgate/contracts/testing/TrustVm.sol` declares, called once, so that a signature forge does not answer
// fails here (run by test/package/foundry-project.test.ts, which serves a local chain at LOCAL_RPC_URL).
pragma solidity ^0.8.24;

import {TRUST_VM, TRUST_VM_ADDRESS} from "trustgate/contracts/testing/TrustVm.sol";

contract Target {
    event Ping(uint256 value);

    error Nope(uint256 value);

    function value() external pure returns (uint256) {
        return 7;
    }

    function ping(uint256 x) external {
        emit Ping(x);
    }

    function sender() external view returns (address) {
        return msg.sender;
    }
}

/// A caller between the test and `Target`: a revert mocked on `Target` then comes from below the test's own call, which
/// is where `expectRevert` looks for it under both forge and Hardhat 3's EDR.
contract Relay {
    function valueOf(Target target) external pure returns (uint256) {
        return target.value();
    }
}

contract TrustVmTest {
    event Ping(uint256 value);

    Target internal target = new Target();

    function test_address() public pure {
        require(TRUST_VM_ADDRESS == address(uint160(uint256(keccak256("hevm cheat code")))), "cheatcode address");
    }

    function test_state() public {
        TRUST_VM.etch(address(0xBEEF), address(target).code);
        require(Target(address(0xBEEF)).value() == 7, "etch");
        TRUST_VM.store(address(0xBEEF), bytes32(uint256(1)), bytes32(uint256(5)));
        require(TRUST_VM.load(address(0xBEEF), bytes32(uint256(1))) == bytes32(uint256(5)), "store/load");
        TRUST_VM.deal(address(0xBEEF), 3 ether);
        require(address(0xBEEF).balance == 3 ether, "deal");
    }

    function test_environment() public {
        TRUST_VM.warp(1_000_000);
        require(block.timestamp == 1_000_000, "warp");
        TRUST_VM.roll(77);
        require(block.number == 77, "roll");
        TRUST_VM.chainId(8453);
        require(block.chainid == 8453, "chainId");
    }

    function test_callers() public {
        TRUST_VM.prank(address(0xCAFE));
        require(target.sender() == address(0xCAFE), "prank");
        require(target.sender() == address(this), "prank lasts one call");
        TRUST_VM.startPrank(address(0xF00D));
        require(target.sender() == address(0xF00D) && target.sender() == address(0xF00D), "startPrank");
        TRUST_VM.stopPrank();
        require(target.sender() == address(this), "stopPrank");
    }

    function test_mockedCalls() public {
        TRUST_VM.mockCall(address(target), abi.encodeCall(Target.value, ()), abi.encode(uint256(9)));
        require(target.value() == 9, "mockCall");
        TRUST_VM.clearMockedCalls();
        require(target.value() == 7, "clearMockedCalls");
        TRUST_VM.mockCallRevert(address(target), "", abi.encodeWithSelector(Target.Nope.selector, 1));
        try target.value() returns (uint256) {
            revert("mockCallRevert did not revert");
        } catch (bytes memory reason) {
            require(keccak256(reason) == keccak256(abi.encodeWithSelector(Target.Nope.selector, 1)), "revert data");
        }
        TRUST_VM.clearMockedCalls();
    }

    // A mocked revert is expected through `Relay`: on a direct call to the mocked contract, forge accepts it but EDR
    // (Hardhat 3) fails with "call didn't revert at a lower depth than cheatcode call depth".
    function test_expectations() public {
        Relay relay = new Relay();
        TRUST_VM.mockCallRevert(address(target), "", abi.encodeWithSelector(Target.Nope.selector, 1));
        TRUST_VM.expectRevert(abi.encodeWithSelector(Target.Nope.selector, 1));
        relay.valueOf(target);
        TRUST_VM.expectPartialRevert(Target.Nope.selector);
        relay.valueOf(target);
        TRUST_VM.expectRevert();
        relay.valueOf(target);
        TRUST_VM.mockCallRevert(address(target), "", abi.encodeWithSelector(Target.Nope.selector));
        TRUST_VM.expectRevert(Target.Nope.selector);
        relay.valueOf(target);
        TRUST_VM.clearMockedCalls();
        TRUST_VM.expectEmit();
        emit Ping(1);
        target.ping(1);
        TRUST_VM.expectEmit(address(target));
        emit Ping(2);
        target.ping(2);
    }

    function test_assume(uint8 x) public pure {
        TRUST_VM.assume(x != 0);
        require(x != 0, "assume");
    }

    function test_keys() public {
        address a = TRUST_VM.addr(1);
        require(a == 0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf, "addr");
        bytes32 digest = keccak256("trustgate");
        (uint8 v, bytes32 r, bytes32 s) = TRUST_VM.sign(1, digest);
        require(ecrecover(digest, v, r, s) == a, "sign");
        (bytes32 pr, bytes32 ps) = TRUST_VM.signP256(1, sha256("trustgate"));
        require(pr != 0 && ps != 0, "signP256");
        (uint256 x, uint256 y) = TRUST_VM.publicKeyP256(1);
        // 1·G: the P-256 generator.
        require(x == 0x6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296, "publicKeyP256 x");
        require(y == 0x4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5, "publicKeyP256 y");
        TRUST_VM.label(a, "one");
    }

    function test_environmentVariables() public view {
        require(bytes(TRUST_VM.envOr("TRUSTGATE_SURELY_UNSET", string("d"))).length == 1, "envOr string");
        require(TRUST_VM.envOr("TRUSTGATE_SURELY_UNSET", uint256(3)) == 3, "envOr uint");
    }

    /// @dev Calls both `skip` signatures of ITrustVm with `false`: forge must answer them (the declarations are right),
    ///      and nothing is skipped; the test passes only if forge runs it to the end.
    function test_skip() public {
        TRUST_VM.skip(false);
        TRUST_VM.skip(false, "not skipped");
    }

    function test_forks() public {
        string memory url = TRUST_VM.envOr("LOCAL_RPC_URL", string(""));
        TRUST_VM.skip(bytes(url).length == 0, "needs LOCAL_RPC_URL");
        TRUST_VM.createSelectFork(url);
        require(block.chainid == 8453, "createSelectFork(url)");
        uint256 latest = block.number;
        TRUST_VM.createSelectFork(url, latest);
        require(block.number == latest, "createSelectFork(url, block)");
    }
}
